// <sys/types.h>, <sys/stat.h>, <fcntl.h>: open with O_CREAT|O_TRUNC and a mode (variadic), fcntl(F_GETFL/F_GETFD/F_SETFD), fstat/stat sizes and types (struct stat layout), mkdir and S_ISDIR, umask
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>

int main(void) {
    int failures = 0;
    if (sizeof(struct stat) != 144 || offsetof(struct stat, st_mode) != 24 || offsetof(struct stat, st_size) != 48 || offsetof(struct stat, st_mtim) != 88) {
        printf("FAIL struct stat layout\n");
        failures++;
    }
    char path[128], dir[128];
    pid_t pid = getpid();
    snprintf(path, sizeof path, "/tmp/accjit_gap103_%d.bin", (int)pid);
    snprintf(dir, sizeof dir, "/tmp/accjit_gap103_%d.d", (int)pid);
    mode_t old = umask(022);
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0640);
    if (fd < 0) { printf("FAIL open\n"); return 1; }
    srand(42);
    size_t n = 1000 + rand() % 1000;
    char *buf = malloc(n);
    for (size_t i = 0; i < n; i++) buf[i] = (char)rand();
    if (write(fd, buf, n) != (ssize_t)n) { printf("FAIL write\n"); failures++; }
    if ((fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDWR) { printf("FAIL F_GETFL\n"); failures++; }
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 || (fcntl(fd, F_GETFD) & FD_CLOEXEC) == 0) { printf("FAIL F_SETFD\n"); failures++; }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size != (off_t)n || !S_ISREG(st.st_mode) || (st.st_mode & 0777) != 0640) {
        printf("FAIL fstat size %ld mode %o\n", (long)st.st_size, (unsigned)st.st_mode);
        failures++;
    }
    close(fd);
    fd = open(path, O_RDONLY);
    char *back = malloc(n);
    if (fd < 0 || read(fd, back, n) != (ssize_t)n || memcmp(buf, back, n) != 0) { printf("FAIL read back\n"); failures++; }
    if (fd >= 0) close(fd);
    struct stat st2;
    if (stat(path, &st2) != 0 || st2.st_ino != st.st_ino || st2.st_size != st.st_size || st2.st_nlink != 1 || st2.st_mtime <= 0) { printf("FAIL stat\n"); failures++; }
    if (open(path, O_CREAT | O_EXCL | O_WRONLY, 0600) >= 0) { printf("FAIL O_EXCL on an existing file\n"); failures++; }
    if (mkdir(dir, 0755) != 0) { printf("FAIL mkdir\n"); failures++; }
    struct stat sd;
    if (stat(dir, &sd) != 0 || !S_ISDIR(sd.st_mode) || S_ISREG(sd.st_mode)) { printf("FAIL S_ISDIR\n"); failures++; }
    rmdir(dir);
    unlink(path);
    if (stat(path, &st2) == 0) { printf("FAIL file still there\n"); failures++; }
    umask(old);
    free(buf);
    free(back);
    return failures != 0;
}
