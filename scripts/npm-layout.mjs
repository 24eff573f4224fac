// The npm packages a release publishes, laid out as napi-rs's loader
// expects them: one package per platform holding that platform's addon
// (`todokit-linux-x64-gnu`, ...), and `todokit` itself, which holds the
// typed layer and the loader (native.cjs) and names every platform's
// package as an optional dependency at its own version, so npm installs the
// one the machine needs.
//
//   node scripts/npm-layout.mjs PACKAGE_DIR ADDONS_DIR OUT_DIR
//
// PACKAGE_DIR is crates/todokit_node after its build (dist/, native.cjs,
// native.d.cts); ADDONS_DIR holds `todokit.<platform>.node` files as
// napi-rs names them; each package is written to OUT_DIR/<name>/, ready for
// `npm pack` or `npm publish`. Used by `make dist` and the release workflow.
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [packageDir, addonsDir, outDir] = process.argv.slice(2);
if (!packageDir || !addonsDir || !outDir) {
  console.error('usage: node scripts/npm-layout.mjs PACKAGE_DIR ADDONS_DIR OUT_DIR');
  process.exit(2);
}

// napi-rs's platform names for the Rust targets package.json lists.
const PLATFORMS = {
  'x86_64-unknown-linux-gnu': { suffix: 'linux-x64-gnu', os: 'linux', cpu: 'x64', libc: 'glibc' },
  'aarch64-unknown-linux-gnu': { suffix: 'linux-arm64-gnu', os: 'linux', cpu: 'arm64', libc: 'glibc' },
  'x86_64-apple-darwin': { suffix: 'darwin-x64', os: 'darwin', cpu: 'x64' },
  'aarch64-apple-darwin': { suffix: 'darwin-arm64', os: 'darwin', cpu: 'arm64' },
  'x86_64-pc-windows-msvc': { suffix: 'win32-x64-msvc', os: 'win32', cpu: 'x64' },
};

const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const { name, version, napi } = manifest;
const platforms = napi.targets.map((target) => {
  const platform = PLATFORMS[target];
  if (!platform) {
    console.error(`npm-layout: no platform name for the target ${target} (package.json's napi.targets)`);
    process.exit(1);
  }
  return platform;
});
const addons = new Set(readdirSync(addonsDir).filter((file) => file.endsWith('.node')));
if (addons.size === 0) {
  console.error(`npm-layout: no addon in ${addonsDir}`);
  process.exit(1);
}
rmSync(outDir, { recursive: true, force: true });
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const LICENSES = ['LICENSE-APACHE', 'LICENSE-MIT'];
const licensed = (dir) => LICENSES.forEach((file) => copyFileSync(join(root, file), join(dir, file)));

// What every package says about where it comes from.
const shared = {
  version,
  license: manifest.license,
  homepage: manifest.homepage,
  repository: manifest.repository,
  engines: manifest.engines,
};

for (const platform of platforms) {
  const addon = `${napi.binaryName}.${platform.suffix}.node`;
  if (!addons.delete(addon)) continue; // built elsewhere (the release workflow gathers them all)
  const dir = join(outDir, `${name}-${platform.suffix}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(addonsDir, addon), join(dir, addon));
  licensed(dir);
  const platformManifest = {
    name: `${name}-${platform.suffix}`,
    ...shared,
    description: `The ${platform.suffix} addon of the ${name} package (installed by it; not for direct use).`,
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    main: addon,
    files: [addon],
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(platformManifest, null, 2)}\n`);
}
if (addons.size > 0) {
  console.error(`npm-layout: addons for no target in package.json's napi.targets: ${[...addons].join(', ')}`);
  process.exit(1);
}

// The package itself: everything it ships but the addons, which come from
// the platform packages.
const dir = join(outDir, name);
mkdirSync(dir, { recursive: true });
for (const entry of ['dist', 'native.cjs', 'native.d.cts']) {
  cpSync(join(packageDir, entry), join(dir, entry), { recursive: true });
}
licensed(dir);
copyFileSync(join(root, 'README.md'), join(dir, 'README.md'));
const { devDependencies: _dev, scripts: _scripts, ...published } = manifest;
published.files = manifest.files.filter((pattern) => !pattern.endsWith('.node'));
published.optionalDependencies = Object.fromEntries(
  platforms.map((platform) => [`${name}-${platform.suffix}`, version]),
);
writeFileSync(join(dir, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
