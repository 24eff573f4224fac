/** The native module napi-rs builds, loaded from this package's folder. */

import { createRequire } from 'node:module';

import type * as Binding from '../native.cjs';

const require = createRequire(import.meta.url);

/** The native module. */
export const binding: typeof Binding = require('../native.cjs') as typeof Binding;

export type { CallAnswer, NativeFeed, NativeKit, NativePolicy } from '../native.cjs';
