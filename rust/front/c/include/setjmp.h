/* accjit bundled <setjmp.h>: glibc x86-64 jmp_buf (200 bytes) and the libc
 * functions themselves. The back end keeps every local of a function that
 * calls setjmp/_setjmp/__sigsetjmp in memory (it knows them by name, as GCC
 * does), so locals not modified between setjmp and longjmp keep their values,
 * as C requires. longjmp must not leave a compute region or a function called
 * from Python through a runtime frame (it jumps only within JIT code). */
#ifndef _ACCJIT_SETJMP_H
#define _ACCJIT_SETJMP_H

struct __jmp_buf_tag {
    long __jmpbuf[8];
    int __mask_was_saved;
    unsigned long __saved_mask[16];
};
typedef struct __jmp_buf_tag jmp_buf[1];
typedef struct __jmp_buf_tag sigjmp_buf[1];

int setjmp(jmp_buf env);
int _setjmp(struct __jmp_buf_tag *env);
int __sigsetjmp(struct __jmp_buf_tag *env, int savemask);
void longjmp(jmp_buf env, int val);
void _longjmp(struct __jmp_buf_tag *env, int val);
void siglongjmp(sigjmp_buf env, int val);
#define sigsetjmp(env, savemask) __sigsetjmp(env, savemask)

#endif
