/* accjit bundled <unistd.h>: a small POSIX subset, glibc x86-64. */
#ifndef _ACCJIT_UNISTD_H
#define _ACCJIT_UNISTD_H

#ifndef _ACCJIT_SIZE_T
#define _ACCJIT_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef _ACCJIT_SSIZE_T
#define _ACCJIT_SSIZE_T
typedef long ssize_t;
#endif
#ifndef NULL
#define NULL ((void*)0)
#endif
#ifndef _ACCJIT_POSIX_IDS
#define _ACCJIT_POSIX_IDS
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int id_t;
typedef long off_t;
typedef unsigned int useconds_t;
typedef unsigned int mode_t;
#endif

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#define _SC_CLK_TCK 2
#define _SC_PAGESIZE 30
#define _SC_PAGE_SIZE 30
#define _SC_NPROCESSORS_CONF 83
#define _SC_NPROCESSORS_ONLN 84

unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
pid_t getpid(void);
pid_t getppid(void);
long sysconf(int name);
ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
off_t lseek(int fd, off_t offset, int whence);
int close(int fd);
int dup(int oldfd);
int dup2(int oldfd, int newfd);
int isatty(int fd);
int access(const char *path, int mode);
char *getcwd(char *buf, size_t size);
int chdir(const char *path);
int rmdir(const char *path);
int unlink(const char *path);
int gethostname(char *name, size_t len);

#endif
