/*
 * The release workflow's check that the file store makes its writes
 * durable on macOS the Mac's way: fcntl(F_FULLFSYNC), which asks the drive
 * to write its cache (a plain fsync there does not). Rust's File::sync_all
 * issues it; this library, loaded into the todokit command with
 * DYLD_INSERT_LIBRARIES, stands in for fcntl (dyld's interposing), appends
 * one line to the file $FULLFSYNC_LOG for each F_FULLFSYNC the command
 * makes, and then makes the call as asked.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int logging_fcntl(int fd, int cmd, ...) {
    va_list args;
    va_start(args, cmd);
    if (cmd == F_FULLFSYNC) {
        va_end(args);
        const char *log = getenv("FULLFSYNC_LOG");
        FILE *out = log ? fopen(log, "a") : NULL;
        if (out) {
            fprintf(out, "F_FULLFSYNC %d\n", fd);
            fclose(out);
        }
        /* Inside the library that interposes, fcntl is the system's. */
        return fcntl(fd, cmd);
    }
    long arg = va_arg(args, long);
    va_end(args);
    return fcntl(fd, cmd, arg);
}

__attribute__((used)) static const struct {
    const void *replacement;
    const void *replacee;
} interposers[] __attribute__((section("__DATA,__interpose"))) = {
    {(const void *)logging_fcntl, (const void *)fcntl},
};
