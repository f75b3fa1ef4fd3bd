/* accjit bundled <sys/time.h>: glibc x86-64 struct timeval and gettimeofday. */
#ifndef _ACCJIT_SYS_TIME_H
#define _ACCJIT_SYS_TIME_H

#include <time.h>

typedef long suseconds_t;

struct timeval {
    long tv_sec;
    long tv_usec;
};

struct timezone {
    int tz_minuteswest;
    int tz_dsttime;
};

int gettimeofday(struct timeval *tv, void *tz);

#define timerisset(tvp) ((tvp)->tv_sec || (tvp)->tv_usec)
#define timerclear(tvp) ((tvp)->tv_sec = (tvp)->tv_usec = 0)
#define timercmp(a, b, CMP) \
    (((a)->tv_sec == (b)->tv_sec) ? ((a)->tv_usec CMP (b)->tv_usec) : ((a)->tv_sec CMP (b)->tv_sec))
#define timeradd(a, b, result)                                \
    do {                                                      \
        (result)->tv_sec = (a)->tv_sec + (b)->tv_sec;         \
        (result)->tv_usec = (a)->tv_usec + (b)->tv_usec;      \
        if ((result)->tv_usec >= 1000000) {                   \
            ++(result)->tv_sec;                               \
            (result)->tv_usec -= 1000000;                     \
        }                                                     \
    } while (0)
#define timersub(a, b, result)                                \
    do {                                                      \
        (result)->tv_sec = (a)->tv_sec - (b)->tv_sec;         \
        (result)->tv_usec = (a)->tv_usec - (b)->tv_usec;      \
        if ((result)->tv_usec < 0) {                          \
            --(result)->tv_sec;                               \
            (result)->tv_usec += 1000000;                     \
        }                                                     \
    } while (0)

#endif
