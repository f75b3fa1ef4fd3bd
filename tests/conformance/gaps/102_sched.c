// <sched.h>: SCHED_* policies, sched_get_priority_max/min, sched_getscheduler/sched_getparam of this process, sched_setscheduler to its own policy, sched_yield
#include <stdio.h>
#include <sched.h>

int main(void) {
    int failures = 0;
    if (sched_get_priority_max(SCHED_FIFO) != 99 || sched_get_priority_min(SCHED_FIFO) != 1) { printf("FAIL FIFO priority range\n"); failures++; }
    if (sched_get_priority_max(SCHED_RR) != 99 || sched_get_priority_max(SCHED_OTHER) != 0 || sched_get_priority_min(SCHED_OTHER) != 0) { printf("FAIL priority ranges\n"); failures++; }
    int policy = sched_getscheduler(0);
    if (policy < 0) { printf("FAIL sched_getscheduler\n"); failures++; }
    struct sched_param p;
    p.sched_priority = -7;
    if (sched_getparam(0, &p) != 0 || p.sched_priority < 0) { printf("FAIL sched_getparam\n"); failures++; }
    if (policy == SCHED_OTHER) {
        /* setting the policy the process already has needs no privilege */
        struct sched_param zero = { 0 };
        if (sched_setscheduler(0, policy, &zero) != 0) { printf("FAIL sched_setscheduler\n"); failures++; }
    }
    /* an invalid policy is refused */
    struct sched_param bad = { 1000 };
    if (sched_setscheduler(0, SCHED_FIFO, &bad) == 0) { printf("FAIL priority 1000 accepted\n"); failures++; }
    for (int i = 0; i < 3; i++)
        if (sched_yield() != 0) { printf("FAIL sched_yield\n"); failures++; }
    if (sizeof(struct sched_param) != sizeof(int)) { printf("FAIL sched_param size\n"); failures++; }
    return failures != 0;
}
