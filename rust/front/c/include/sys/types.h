/* accjit bundled <sys/types.h>: the POSIX scalar types, glibc x86-64 (LP64). */
#ifndef _ACCJIT_SYS_TYPES_H
#define _ACCJIT_SYS_TYPES_H

#ifndef _ACCJIT_SIZE_T
#define _ACCJIT_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef _ACCJIT_SSIZE_T
#define _ACCJIT_SSIZE_T
typedef long ssize_t;
#endif
#ifndef _ACCJIT_TIME_T
#define _ACCJIT_TIME_T
typedef long time_t;
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
typedef unsigned long dev_t;
typedef unsigned long ino_t;
typedef unsigned long nlink_t;
typedef long blksize_t;
typedef long blkcnt_t;
typedef long suseconds_t;
typedef int key_t;
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;

#endif
