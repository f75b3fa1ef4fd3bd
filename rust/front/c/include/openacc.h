/* accjit bundled <openacc.h>: the OpenACC 3.3 runtime library interface
   (chapter 3) and the profiling/error-callback interface (chapter 5).
   The routines are implemented by accjit's runtime (rust/runtime) and bound
   when the program is JIT-linked; _OPENACC is predefined as 202211.

   Values chosen (shared with rust/runtime/src/consts.rs; acc_device_t is
   defined by the runtime ABI table, rust/abi, and tested against this file):
     acc_device_t           current -1, none 0, default 1, host 2, not_host 3,
                            nvidia 4, radeon 5, opencl 6,
                            multicore 7 (accjit's own: the multicore CPU device)
     async values           acc_async_noval -1, acc_async_sync -2, acc_async_default -3
     acc_device_property_t  memory 1, free_memory 2, shared_memory_support 3,
                            name 0x10000, vendor 0x10001, driver 0x10002
     acc_error_t            none 0, other 1, system 2, execution 3, device_init 4,
                            device_shutdown 5, device_unavailable 6,
                            device_type_unavailable 7, wrong_device_type 8,
                            out_of_memory 9, not_present 10, partly_present 11,
                            present 12, invalid_argument 13, invalid_async 14,
                            invalid_null_pointer 15, invalid_data_section 16,
                            implementation_defined 100 (and above)
     acc_event_t            GCC's order (none 0 ... wait_end 25), error 26, last 27
     acc_construct_t        parallel 0, kernels 1, loop 2, data 3, enter_data 4,
                            exit_data 5, host_data 6, atomic 7, declare 8, init 9,
                            shutdown 10, set 11, update 12, routine 13, wait 14,
                            runtime_api 15, serial 16
     acc_register_t         acc_reg 0, acc_toggle 1, acc_toggle_per_thread 2
     acc_device_api         none 0, cuda 1, opencl 2, coi 3, other 4
   Legacy names (acc_pcopyin, acc_present_or_copyin, acc_pcreate,
   acc_present_or_create, acc_async_wait, acc_async_wait_all) are macros for
   the current routines. */
#ifndef _ACCJIT_OPENACC_H
#define _ACCJIT_OPENACC_H

#ifndef _ACCJIT_SIZE_T
#define _ACCJIT_SIZE_T
typedef unsigned long size_t;
#endif

/* ---- 3.1 definitions ---- */

typedef enum acc_device_t {
    acc_device_current = -1,
    acc_device_none = 0,
    acc_device_default = 1,
    acc_device_host = 2,
    acc_device_not_host = 3,
    acc_device_nvidia = 4,
    acc_device_radeon = 5,
    acc_device_opencl = 6,
    acc_device_multicore = 7
} acc_device_t;

typedef enum acc_device_property_t {
    acc_property_memory = 1,
    acc_property_free_memory = 2,
    acc_property_shared_memory_support = 3,
    acc_property_name = 0x10000,
    acc_property_vendor = 0x10001,
    acc_property_driver = 0x10002
} acc_device_property_t;

#define acc_async_noval (-1)
#define acc_async_sync (-2)
#define acc_async_default (-3)

typedef enum acc_error_t {
    acc_error_none = 0,
    acc_error_other = 1,
    acc_error_system = 2,
    acc_error_execution = 3,
    acc_error_device_init = 4,
    acc_error_device_shutdown = 5,
    acc_error_device_unavailable = 6,
    acc_error_device_type_unavailable = 7,
    acc_error_wrong_device_type = 8,
    acc_error_out_of_memory = 9,
    acc_error_not_present = 10,
    acc_error_partly_present = 11,
    acc_error_present = 12,
    acc_error_invalid_argument = 13,
    acc_error_invalid_async = 14,
    acc_error_invalid_null_pointer = 15,
    acc_error_invalid_data_section = 16,
    acc_error_implementation_defined = 100
} acc_error_t;

/* ---- 3.2 runtime routines ---- */

int acc_get_num_devices(acc_device_t dev_type);
void acc_set_device_type(acc_device_t dev_type);
acc_device_t acc_get_device_type(void);
void acc_set_device_num(int dev_num, acc_device_t dev_type);
int acc_get_device_num(acc_device_t dev_type);
size_t acc_get_property(int dev_num, acc_device_t dev_type, acc_device_property_t property);
const char *acc_get_property_string(int dev_num, acc_device_t dev_type, acc_device_property_t property);
void acc_init(acc_device_t dev_type);
void acc_init_device(int dev_num, acc_device_t dev_type);
void acc_shutdown(acc_device_t dev_type);
void acc_shutdown_device(int dev_num, acc_device_t dev_type);

int acc_async_test(int wait_arg);
int acc_async_test_device(int wait_arg, int dev_num);
int acc_async_test_all(void);
int acc_async_test_all_device(int dev_num);
void acc_wait(int wait_arg);
void acc_wait_device(int wait_arg, int dev_num);
void acc_wait_async(int wait_arg, int async_arg);
void acc_wait_device_async(int wait_arg, int async_arg, int dev_num);
void acc_wait_all(void);
void acc_wait_all_device(int dev_num);
void acc_wait_all_async(int async_arg);
void acc_wait_all_device_async(int async_arg, int dev_num);
int acc_wait_any(int count, int wait_arg[]);
int acc_wait_any_device(int count, int wait_arg[], int dev_num);
int acc_get_default_async(void);
void acc_set_default_async(int async_arg);

int acc_on_device(acc_device_t dev_type);

void *acc_malloc(size_t bytes);
void acc_free(void *data_dev);

void *acc_copyin(void *data_arg, size_t bytes);
void acc_copyin_async(void *data_arg, size_t bytes, int async_arg);
void *acc_create(void *data_arg, size_t bytes);
void acc_create_async(void *data_arg, size_t bytes, int async_arg);
void acc_copyout(void *data_arg, size_t bytes);
void acc_copyout_async(void *data_arg, size_t bytes, int async_arg);
void acc_copyout_finalize(void *data_arg, size_t bytes);
void acc_copyout_finalize_async(void *data_arg, size_t bytes, int async_arg);
void acc_delete(void *data_arg, size_t bytes);
void acc_delete_async(void *data_arg, size_t bytes, int async_arg);
void acc_delete_finalize(void *data_arg, size_t bytes);
void acc_delete_finalize_async(void *data_arg, size_t bytes, int async_arg);
void acc_update_device(void *data_arg, size_t bytes);
void acc_update_device_async(void *data_arg, size_t bytes, int async_arg);
void acc_update_self(void *data_arg, size_t bytes);
void acc_update_self_async(void *data_arg, size_t bytes, int async_arg);

void acc_map_data(void *data_arg, void *data_dev, size_t bytes);
void acc_unmap_data(void *data_arg);
void *acc_deviceptr(void *data_arg);
void *acc_hostptr(void *data_dev);
int acc_is_present(void *data_arg, size_t bytes);

void acc_memcpy_to_device(void *data_dev_dest, void *data_host_src, size_t bytes);
void acc_memcpy_to_device_async(void *data_dev_dest, void *data_host_src, size_t bytes, int async_arg);
void acc_memcpy_from_device(void *data_host_dest, void *data_dev_src, size_t bytes);
void acc_memcpy_from_device_async(void *data_host_dest, void *data_dev_src, size_t bytes, int async_arg);
void acc_memcpy_device(void *data_dev_dest, void *data_dev_src, size_t bytes);
void acc_memcpy_device_async(void *data_dev_dest, void *data_dev_src, size_t bytes, int async_arg);
void acc_memcpy_d2d(void *data_arg_dest, void *data_arg_src, size_t bytes, int dev_num_dest, int dev_num_src);
void acc_memcpy_d2d_async(void *data_arg_dest, void *data_arg_src, size_t bytes, int dev_num_dest, int dev_num_src, int async_arg_src);

void acc_attach(void **ptr_addr);
void acc_attach_async(void **ptr_addr, int async_arg);
void acc_detach(void **ptr_addr);
void acc_detach_async(void **ptr_addr, int async_arg);
void acc_detach_finalize(void **ptr_addr);
void acc_detach_finalize_async(void **ptr_addr, int async_arg);

/* Legacy names (OpenACC 1.0/2.0). */
#define acc_pcopyin acc_copyin
#define acc_present_or_copyin acc_copyin
#define acc_pcreate acc_create
#define acc_present_or_create acc_create
#define acc_async_wait acc_wait
#define acc_async_wait_all acc_wait_all

/* Appendix A platform routines (NULL / 0 where the device has no such object). */
void *acc_get_current_cuda_device(void);
void *acc_get_current_cuda_context(void);
void *acc_get_cuda_stream(int async_arg);
int acc_set_cuda_stream(int async_arg, void *stream);
void *acc_get_current_opencl_device(void);
void *acc_get_current_opencl_context(void);
void *acc_get_opencl_queue(int async_arg);
void acc_set_opencl_queue(int async_arg, void *cmdqueue);

/* ---- chapter 5: profiling and error callbacks ---- */

typedef enum acc_event_t {
    acc_ev_none = 0,
    acc_ev_device_init_start = 1,
    acc_ev_device_init_end = 2,
    acc_ev_device_shutdown_start = 3,
    acc_ev_device_shutdown_end = 4,
    acc_ev_runtime_shutdown = 5,
    acc_ev_create = 6,
    acc_ev_delete = 7,
    acc_ev_alloc = 8,
    acc_ev_free = 9,
    acc_ev_enter_data_start = 10,
    acc_ev_enter_data_end = 11,
    acc_ev_exit_data_start = 12,
    acc_ev_exit_data_end = 13,
    acc_ev_update_start = 14,
    acc_ev_update_end = 15,
    acc_ev_compute_construct_start = 16,
    acc_ev_compute_construct_end = 17,
    acc_ev_enqueue_launch_start = 18,
    acc_ev_enqueue_launch_end = 19,
    acc_ev_enqueue_upload_start = 20,
    acc_ev_enqueue_upload_end = 21,
    acc_ev_enqueue_download_start = 22,
    acc_ev_enqueue_download_end = 23,
    acc_ev_wait_start = 24,
    acc_ev_wait_end = 25,
    acc_ev_error = 26,
    acc_ev_last = 27
} acc_event_t;

typedef enum acc_construct_t {
    acc_construct_parallel = 0,
    acc_construct_kernels = 1,
    acc_construct_loop = 2,
    acc_construct_data = 3,
    acc_construct_enter_data = 4,
    acc_construct_exit_data = 5,
    acc_construct_host_data = 6,
    acc_construct_atomic = 7,
    acc_construct_declare = 8,
    acc_construct_init = 9,
    acc_construct_shutdown = 10,
    acc_construct_set = 11,
    acc_construct_update = 12,
    acc_construct_routine = 13,
    acc_construct_wait = 14,
    acc_construct_runtime_api = 15,
    acc_construct_serial = 16
} acc_construct_t;

typedef enum acc_device_api {
    acc_device_api_none = 0,
    acc_device_api_cuda = 1,
    acc_device_api_opencl = 2,
    acc_device_api_coi = 3,
    acc_device_api_other = 4
} acc_device_api;

typedef enum acc_register_t {
    acc_reg = 0,
    acc_toggle = 1,
    acc_toggle_per_thread = 2
} acc_register_t;

typedef struct acc_prof_info {
    acc_event_t event_type;
    int valid_bytes;
    int version;
    acc_device_t device_type;
    int device_number;
    int thread_id;
    long async;
    long async_queue;
    const char *src_file;
    const char *func_name;
    int line_no;
    int end_line_no;
    int func_line_no;
    int func_end_line_no;
} acc_prof_info;
typedef acc_prof_info acc_callback_info;

typedef struct acc_data_event_info {
    acc_event_t event_type;
    int valid_bytes;
    acc_construct_t parent_construct;
    int implicit;
    void *tool_info;
    const char *var_name;
    size_t bytes;
    const void *host_ptr;
    const void *device_ptr;
} acc_data_event_info;

typedef struct acc_launch_event_info {
    acc_event_t event_type;
    int valid_bytes;
    acc_construct_t parent_construct;
    int implicit;
    void *tool_info;
    const char *kernel_name;
    size_t num_gangs;
    size_t num_workers;
    size_t vector_length;
} acc_launch_event_info;

typedef struct acc_other_event_info {
    acc_event_t event_type;
    int valid_bytes;
    acc_construct_t parent_construct;
    int implicit;
    void *tool_info;
} acc_other_event_info;

typedef struct acc_error_event_info {
    acc_event_t event_type;
    int valid_bytes;
    acc_construct_t parent_construct;
    int implicit;
    void *tool_info;
    acc_error_t error_code;
    const char *error_message;
    size_t runtime_info;
} acc_error_event_info;

typedef union acc_event_info {
    acc_event_t event_type;
    acc_data_event_info data_event;
    acc_launch_event_info launch_event;
    acc_other_event_info other_event;
    acc_error_event_info error_event;
} acc_event_info;

typedef struct acc_api_info {
    acc_device_api device_api;
    int valid_bytes;
    acc_device_t device_type;
    int vendor;
    const void *device_handle;
    const void *context_handle;
    const void *async_handle;
} acc_api_info;

typedef void (*acc_prof_callback)(acc_prof_info *, acc_event_info *, acc_api_info *);
typedef acc_prof_callback acc_callback;
typedef void (*acc_prof_reg)(acc_event_t event_type, acc_prof_callback cb, acc_register_t info);
typedef void (*acc_query_fn)(void);
typedef acc_query_fn (*acc_prof_lookup_func)(const char *name);

void acc_prof_register(acc_event_t event_type, acc_prof_callback cb, acc_register_t info);
void acc_prof_unregister(acc_event_t event_type, acc_prof_callback cb, acc_register_t info);
void acc_callback_register(acc_event_t event_type, acc_callback cb, acc_register_t info);
void acc_callback_unregister(acc_event_t event_type, acc_callback cb, acc_register_t info);
acc_query_fn acc_prof_lookup(const char *name);
void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup);

#endif
