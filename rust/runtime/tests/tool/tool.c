/* A profiling tools library for tests/env.rs, loaded through ACC_PROFLIB.
   It uses only the bundled openacc.h, so it also checks the struct layouts
   the runtime passes against the header's. */
#include <openacc.h>

static int counts[acc_ev_last];
static long last_gangs = -1;
static long last_bytes = -1;
static int last_error = -1;
static int last_line = -1;
static char kernel0 = 0;

static void cb(acc_prof_info *pi, acc_event_info *ei, acc_api_info *ai) {
    (void)ai;
    if (pi->event_type >= 0 && pi->event_type < acc_ev_last) counts[pi->event_type]++;
    switch (pi->event_type) {
    case acc_ev_enqueue_launch_start:
        last_gangs = (long)ei->launch_event.num_gangs;
        kernel0 = ei->launch_event.kernel_name ? ei->launch_event.kernel_name[0] : '?';
        last_line = pi->line_no;
        break;
    case acc_ev_create:
        last_bytes = (long)ei->data_event.bytes;
        break;
    case acc_ev_error:
        last_error = ei->error_event.error_code;
        break;
    default:
        break;
    }
}

void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup) {
    (void)unreg;
    (void)lookup;
    reg(acc_ev_device_init_start, cb, acc_reg);
    reg(acc_ev_enqueue_launch_start, cb, acc_reg);
    reg(acc_ev_create, cb, acc_reg);
    reg(acc_ev_error, cb, acc_reg);
}

long tool_query(int what) {
    switch (what) {
    case 0: return last_gangs;
    case 1: return last_bytes;
    case 2: return last_error;
    case 3: return kernel0;
    case 4: return last_line;
    default: return counts[what - 100];
    }
}
