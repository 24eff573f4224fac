/*
 * bcryptprimitives.dll for Wine before 9, which lacks it: Rust's standard
 * library (1.78 and later) takes its random bytes from the DLL's
 * ProcessPrng, so a Windows program built with it does not start there
 * without this. It answers from RtlGenRandom (advapi32's
 * SystemFunction036), which every Wine has. Built by scripts/wine-test.sh
 * with Zig and put beside the program under test; never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
