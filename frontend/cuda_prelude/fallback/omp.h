/*
 * cuda-access-lint: a stand-in for the OpenMP runtime header.
 *
 * A .cu file whose host code uses OpenMP (`-Xcompiler -fopenmp`) includes
 * <omp.h>; nvcc's host compiler (GCC) has one, clang has one only when
 * libomp is installed. This directory is searched after every other include
 * directory (-idirafter), so a real omp.h always wins; without one, this
 * declares the OpenMP 5.2 runtime library routines (chapter 18 of the
 * specification) for the parse. Declarations only: nothing is generated.
 */
#ifndef CUDA_ACCESS_LINT_FALLBACK_OMP_H
#define CUDA_ACCESS_LINT_FALLBACK_OMP_H
#pragma clang system_header


#ifdef __cplusplus
extern "C" {
#endif

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4,
  omp_sched_monotonic = 0x80000000u
} omp_sched_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_primary = 2,
  omp_proc_bind_master = 2,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0,
  omp_sync_hint_uncontended = 1,
  omp_sync_hint_contended = 2,
  omp_sync_hint_nonspeculative = 4,
  omp_sync_hint_speculative = 8
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

typedef struct omp_lock_t { void *_lk; } omp_lock_t;
typedef struct omp_nest_lock_t { void *_lk; } omp_nest_lock_t;

typedef void *omp_depend_t;
typedef void *omp_event_handle_t;
typedef unsigned long omp_uintptr_t;
typedef unsigned long omp_allocator_handle_t;
typedef unsigned long omp_memspace_handle_t;

/* Thread team and environment. */
void omp_set_num_threads(int num_threads);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int dynamic_threads);
int omp_get_dynamic(void);
int omp_get_cancellation(void);
void omp_set_nested(int nested);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t kind, int chunk_size);
void omp_get_schedule(omp_sched_t *kind, int *chunk_size);
int omp_get_thread_limit(void);
int omp_get_supported_active_levels(void);
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int level);
int omp_get_team_size(int level);
int omp_get_active_level(void);
int omp_in_final(void);
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num_procs(int place_num);
void omp_get_place_proc_ids(int place_num, int *ids);
int omp_get_place_num(void);
int omp_get_partition_num_places(void);
void omp_get_partition_place_nums(int *place_nums);

/* Devices and teams. */
void omp_set_default_device(int device_num);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_device_num(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
int omp_get_max_task_priority(void);

/* Locks. */
void omp_init_lock(omp_lock_t *lock);
void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t hint);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);

/* Timing. */
double omp_get_wtime(void);
double omp_get_wtick(void);

/* Device memory. */
void *omp_target_alloc(__SIZE_TYPE__ size, int device_num);
void omp_target_free(void *device_ptr, int device_num);
int omp_target_is_present(const void *ptr, int device_num);
int omp_target_memcpy(void *dst, const void *src, __SIZE_TYPE__ length,
                      __SIZE_TYPE__ dst_offset, __SIZE_TYPE__ src_offset,
                      int dst_device_num, int src_device_num);
int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr,
                             __SIZE_TYPE__ size, __SIZE_TYPE__ device_offset,
                             int device_num);
int omp_target_disassociate_ptr(const void *ptr, int device_num);

/* Memory management. */
extern const omp_allocator_handle_t omp_default_mem_alloc;
void *omp_alloc(__SIZE_TYPE__ size, omp_allocator_handle_t allocator);
void omp_free(void *ptr, omp_allocator_handle_t allocator);
void omp_set_default_allocator(omp_allocator_handle_t allocator);
omp_allocator_handle_t omp_get_default_allocator(void);

/* Events, pause, display. */
void omp_fulfill_event(omp_event_handle_t event);
int omp_pause_resource_all(int kind);
void omp_display_affinity(const char *format);
int omp_control_tool(int command, int modifier, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* CUDA_ACCESS_LINT_FALLBACK_OMP_H */
