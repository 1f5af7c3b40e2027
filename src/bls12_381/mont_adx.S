/* czk — Montgomery multiplication with MULX/ADCX/ADOX (x86-64, System V).
 *
 * void czk_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 * void czk_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *
 * The "no-carry" CIOS variant (the modulus' top limb is < 2^63 - 1): for each
 * word b[i], t += a·b[i] on two independent carry chains (CF for low halves,
 * OF for high halves), then t += m·p with m = t0·(-p^-1) mod 2^64, and the
 * accumulator shifts down one word by renaming registers instead of moving
 * them. One final conditional subtraction gives r < p. r may alias a or b: it
 * is written only at the end. */
#if defined(__x86_64__) && defined(__ELF__)

    .section .rodata
    .p2align 6
fp_modulus:
    .quad 0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624
    .quad 0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a
fr_modulus:
    .quad 0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48

    .text

/* One outer step for 6 limbs: t[0..6] += a·b[OFF/8], then reduce and drop t0. */
#define FP_STEP(OFF, T0, T1, T2, T3, T4, T5, T6)                                   \
    movq OFF(%rcx), %rdx;                                                          \
    xorl %eax, %eax;                                                               \
    mulxq 0(%rsi), %rax, %rbx;  adcxq %rax, T0; adoxq %rbx, T1;                    \
    mulxq 8(%rsi), %rax, %rbx;  adcxq %rax, T1; adoxq %rbx, T2;                    \
    mulxq 16(%rsi), %rax, %rbx; adcxq %rax, T2; adoxq %rbx, T3;                    \
    mulxq 24(%rsi), %rax, %rbx; adcxq %rax, T3; adoxq %rbx, T4;                    \
    mulxq 32(%rsi), %rax, %rbx; adcxq %rax, T4; adoxq %rbx, T5;                    \
    mulxq 40(%rsi), %rax, T6;   adcxq %rax, T5;                                    \
    movl $0, %eax; adoxq %rax, T6; adcxq %rax, T6;                                 \
    movq T0, %rdx; imulq %r15, %rdx;                                               \
    xorl %eax, %eax;                                                               \
    mulxq fp_modulus+0(%rip), %rax, %rbx;  adcxq T0, %rax; adoxq %rbx, T1;         \
    mulxq fp_modulus+8(%rip), %rax, %rbx;  adcxq %rax, T1; adoxq %rbx, T2;         \
    mulxq fp_modulus+16(%rip), %rax, %rbx; adcxq %rax, T2; adoxq %rbx, T3;         \
    mulxq fp_modulus+24(%rip), %rax, %rbx; adcxq %rax, T3; adoxq %rbx, T4;         \
    mulxq fp_modulus+32(%rip), %rax, %rbx; adcxq %rax, T4; adoxq %rbx, T5;         \
    mulxq fp_modulus+40(%rip), %rax, %rbx; adcxq %rax, T5; adoxq %rbx, T6;         \
    movl $0, %eax; adcxq %rax, T6;

    .globl czk_fp_mul_adx
    .type czk_fp_mul_adx, @function
    .p2align 5
czk_fp_mul_adx:
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rdx, %rcx
    movabsq $0x89f3fffcfffcfffd, %r15
    xorl %r8d, %r8d
    xorl %r9d, %r9d
    xorl %r10d, %r10d
    xorl %r11d, %r11d
    xorl %r12d, %r12d
    xorl %r13d, %r13d
    FP_STEP(0,  %r8,  %r9,  %r10, %r11, %r12, %r13, %r14)
    FP_STEP(8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r8)
    FP_STEP(16, %r10, %r11, %r12, %r13, %r14, %r8,  %r9)
    FP_STEP(24, %r11, %r12, %r13, %r14, %r8,  %r9,  %r10)
    FP_STEP(32, %r12, %r13, %r14, %r8,  %r9,  %r10, %r11)
    FP_STEP(40, %r13, %r14, %r8,  %r9,  %r10, %r11, %r12)
    /* t = (r14, r8, r9, r10, r11, r12) < 2p; subtract p unless it borrows */
    movq %r14, %rax; subq fp_modulus+0(%rip), %rax
    movq %r8,  %rbx; sbbq fp_modulus+8(%rip), %rbx
    movq %r9,  %rdx; sbbq fp_modulus+16(%rip), %rdx
    movq %r10, %rsi; sbbq fp_modulus+24(%rip), %rsi
    movq %r11, %rcx; sbbq fp_modulus+32(%rip), %rcx
    movq %r12, %r13; sbbq fp_modulus+40(%rip), %r13
    cmovcq %r14, %rax
    cmovcq %r8,  %rbx
    cmovcq %r9,  %rdx
    cmovcq %r10, %rsi
    cmovcq %r11, %rcx
    cmovcq %r12, %r13
    movq %rax, 0(%rdi)
    movq %rbx, 8(%rdi)
    movq %rdx, 16(%rdi)
    movq %rsi, 24(%rdi)
    movq %rcx, 32(%rdi)
    movq %r13, 40(%rdi)
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    ret
    .size czk_fp_mul_adx, .-czk_fp_mul_adx

/* The same for 4 limbs (Fr). */
#define FR_STEP(OFF, T0, T1, T2, T3, T4)                                           \
    movq OFF(%rcx), %rdx;                                                          \
    xorl %eax, %eax;                                                               \
    mulxq 0(%rsi), %rax, %rbx;  adcxq %rax, T0; adoxq %rbx, T1;                    \
    mulxq 8(%rsi), %rax, %rbx;  adcxq %rax, T1; adoxq %rbx, T2;                    \
    mulxq 16(%rsi), %rax, %rbx; adcxq %rax, T2; adoxq %rbx, T3;                    \
    mulxq 24(%rsi), %rax, T4;   adcxq %rax, T3;                                    \
    movl $0, %eax; adoxq %rax, T4; adcxq %rax, T4;                                 \
    movq T0, %rdx; imulq %r15, %rdx;                                               \
    xorl %eax, %eax;                                                               \
    mulxq fr_modulus+0(%rip), %rax, %rbx;  adcxq T0, %rax; adoxq %rbx, T1;         \
    mulxq fr_modulus+8(%rip), %rax, %rbx;  adcxq %rax, T1; adoxq %rbx, T2;         \
    mulxq fr_modulus+16(%rip), %rax, %rbx; adcxq %rax, T2; adoxq %rbx, T3;         \
    mulxq fr_modulus+24(%rip), %rax, %rbx; adcxq %rax, T3; adoxq %rbx, T4;         \
    movl $0, %eax; adcxq %rax, T4;

    .globl czk_fr_mul_adx
    .type czk_fr_mul_adx, @function
    .p2align 5
czk_fr_mul_adx:
    pushq %rbx
    pushq %r12
    pushq %r15
    movq %rdx, %rcx
    movabsq $0xfffffffeffffffff, %r15
    xorl %r8d, %r8d
    xorl %r9d, %r9d
    xorl %r10d, %r10d
    xorl %r11d, %r11d
    FR_STEP(0,  %r8,  %r9,  %r10, %r11, %r12)
    FR_STEP(8,  %r9,  %r10, %r11, %r12, %r8)
    FR_STEP(16, %r10, %r11, %r12, %r8,  %r9)
    FR_STEP(24, %r11, %r12, %r8,  %r9,  %r10)
    /* t = (r12, r8, r9, r10) < 2r; subtract r unless it borrows */
    movq %r12, %rax; subq fr_modulus+0(%rip), %rax
    movq %r8,  %rbx; sbbq fr_modulus+8(%rip), %rbx
    movq %r9,  %rdx; sbbq fr_modulus+16(%rip), %rdx
    movq %r10, %rsi; sbbq fr_modulus+24(%rip), %rsi
    cmovcq %r12, %rax
    cmovcq %r8,  %rbx
    cmovcq %r9,  %rdx
    cmovcq %r10, %rsi
    movq %rax, 0(%rdi)
    movq %rbx, 8(%rdi)
    movq %rdx, 16(%rdi)
    movq %rsi, 24(%rdi)
    popq %r15
    popq %r12
    popq %rbx
    ret
    .size czk_fr_mul_adx, .-czk_fr_mul_adx


/* void czk_fp_add_asm(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 * r = a + b mod p for a, b < p (plain x86-64, no ADX needed). The sum is
 * stored, p is subtracted in registers, and a borrow restores the stored sum
 * with conditional moves from memory: no branch on the data. */
    .globl czk_fp_add_asm
    .type czk_fp_add_asm, @function
    .p2align 5
czk_fp_add_asm:
    movq 0(%rsi), %r8;  addq 0(%rdx), %r8
    movq 8(%rsi), %r9;  adcq 8(%rdx), %r9
    movq 16(%rsi), %r10; adcq 16(%rdx), %r10
    movq 24(%rsi), %r11; adcq 24(%rdx), %r11
    movq 32(%rsi), %rax; adcq 32(%rdx), %rax
    movq 40(%rsi), %rcx; adcq 40(%rdx), %rcx
    jmp fp_reduce_once

/* r = t - p if t >= p, else t; t in (r8, r9, r10, r11, rax, rcx), t < 2p. */
fp_reduce_once:
    movq %r8, 0(%rdi)
    movq %r9, 8(%rdi)
    movq %r10, 16(%rdi)
    movq %r11, 24(%rdi)
    movq %rax, 32(%rdi)
    movq %rcx, 40(%rdi)
    subq fp_modulus+0(%rip), %r8
    sbbq fp_modulus+8(%rip), %r9
    sbbq fp_modulus+16(%rip), %r10
    sbbq fp_modulus+24(%rip), %r11
    sbbq fp_modulus+32(%rip), %rax
    sbbq fp_modulus+40(%rip), %rcx
    cmovcq 0(%rdi), %r8
    cmovcq 8(%rdi), %r9
    cmovcq 16(%rdi), %r10
    cmovcq 24(%rdi), %r11
    cmovcq 32(%rdi), %rax
    cmovcq 40(%rdi), %rcx
    movq %r8, 0(%rdi)
    movq %r9, 8(%rdi)
    movq %r10, 16(%rdi)
    movq %r11, 24(%rdi)
    movq %rax, 32(%rdi)
    movq %rcx, 40(%rdi)
    ret
    .size czk_fp_add_asm, .-czk_fp_add_asm

/* void czk_fp_dbl_asm(uint64_t r[6], const uint64_t a[6]); r = 2a mod p. */
    .globl czk_fp_dbl_asm
    .type czk_fp_dbl_asm, @function
    .p2align 5
czk_fp_dbl_asm:
    movq 0(%rsi), %r8;  addq %r8, %r8
    movq 8(%rsi), %r9;  adcq %r9, %r9
    movq 16(%rsi), %r10; adcq %r10, %r10
    movq 24(%rsi), %r11; adcq %r11, %r11
    movq 32(%rsi), %rax; adcq %rax, %rax
    movq 40(%rsi), %rcx; adcq %rcx, %rcx
    jmp fp_reduce_once
    .size czk_fp_dbl_asm, .-czk_fp_dbl_asm

/* void czk_fp_sub_asm(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 * r = a - b mod p: the difference is stored, p is added in registers, and
 * without a borrow the stored difference is moved back. */
    .globl czk_fp_sub_asm
    .type czk_fp_sub_asm, @function
    .p2align 5
czk_fp_sub_asm:
    movq 0(%rsi), %r8;  subq 0(%rdx), %r8
    movq 8(%rsi), %r9;  sbbq 8(%rdx), %r9
    movq 16(%rsi), %r10; sbbq 16(%rdx), %r10
    movq 24(%rsi), %r11; sbbq 24(%rdx), %r11
    movq 32(%rsi), %rax; sbbq 32(%rdx), %rax
    movq 40(%rsi), %rcx; sbbq 40(%rdx), %rcx
    sbbq %rsi, %rsi            /* rsi = borrow ? ~0 : 0 */
    movq %r8, 0(%rdi)
    movq %r9, 8(%rdi)
    movq %r10, 16(%rdi)
    movq %r11, 24(%rdi)
    movq %rax, 32(%rdi)
    movq %rcx, 40(%rdi)
    addq fp_modulus+0(%rip), %r8
    adcq fp_modulus+8(%rip), %r9
    adcq fp_modulus+16(%rip), %r10
    adcq fp_modulus+24(%rip), %r11
    adcq fp_modulus+32(%rip), %rax
    adcq fp_modulus+40(%rip), %rcx
    testq %rsi, %rsi           /* no borrow: keep the stored difference */
    cmovzq 0(%rdi), %r8
    cmovzq 8(%rdi), %r9
    cmovzq 16(%rdi), %r10
    cmovzq 24(%rdi), %r11
    cmovzq 32(%rdi), %rax
    cmovzq 40(%rdi), %rcx
    movq %r8, 0(%rdi)
    movq %r9, 8(%rdi)
    movq %r10, 16(%rdi)
    movq %r11, 24(%rdi)
    movq %rax, 32(%rdi)
    movq %rcx, 40(%rdi)
    ret
    .size czk_fp_sub_asm, .-czk_fp_sub_asm

/* void czk_fp_mul_wide_adx(uint64_t r[12], const uint64_t a[6], const uint64_t b[6]);
 * The full 768-bit product a·b (no reduction), for a, b < 2^384. Row i adds
 * a·b[i] into a 7-word window (two carry chains); the window's low word is
 * final after each row and is stored. */
#define WIDE_ROW(OFF, T0, T1, T2, T3, T4, T5, T6)                                  \
    movq OFF(%rcx), %rdx;                                                          \
    xorl %eax, %eax;                                                               \
    mulxq 0(%rsi), %rax, %rbx;  adcxq %rax, T0; adoxq %rbx, T1;                    \
    mulxq 8(%rsi), %rax, %rbx;  adcxq %rax, T1; adoxq %rbx, T2;                    \
    mulxq 16(%rsi), %rax, %rbx; adcxq %rax, T2; adoxq %rbx, T3;                    \
    mulxq 24(%rsi), %rax, %rbx; adcxq %rax, T3; adoxq %rbx, T4;                    \
    mulxq 32(%rsi), %rax, %rbx; adcxq %rax, T4; adoxq %rbx, T5;                    \
    mulxq 40(%rsi), %rax, T6;   adcxq %rax, T5;                                    \
    movl $0, %eax; adoxq %rax, T6; adcxq %rax, T6;                                 \
    movq T0, OFF(%rdi);

    .globl czk_fp_mul_wide_adx
    .type czk_fp_mul_wide_adx, @function
    .p2align 5
czk_fp_mul_wide_adx:
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    movq %rdx, %rcx
    xorl %r8d, %r8d
    xorl %r9d, %r9d
    xorl %r10d, %r10d
    xorl %r11d, %r11d
    xorl %r12d, %r12d
    xorl %r13d, %r13d
    WIDE_ROW(0,  %r8,  %r9,  %r10, %r11, %r12, %r13, %r14)
    WIDE_ROW(8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r8)
    WIDE_ROW(16, %r10, %r11, %r12, %r13, %r14, %r8,  %r9)
    WIDE_ROW(24, %r11, %r12, %r13, %r14, %r8,  %r9,  %r10)
    WIDE_ROW(32, %r12, %r13, %r14, %r8,  %r9,  %r10, %r11)
    WIDE_ROW(40, %r13, %r14, %r8,  %r9,  %r10, %r11, %r12)
    /* the high half: (r14, r8, r9, r10, r11, r12) */
    movq %r14, 48(%rdi)
    movq %r8,  56(%rdi)
    movq %r9,  64(%rdi)
    movq %r10, 72(%rdi)
    movq %r11, 80(%rdi)
    movq %r12, 88(%rdi)
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    ret
    .size czk_fp_mul_wide_adx, .-czk_fp_mul_wide_adx

/* void czk_fp_redc_adx(uint64_t r[6], const uint64_t t[12]);
 * Montgomery reduction r = t·2^-384 mod p for t < p·2^384, r < p. Each step
 * adds m·p (m = t0·(-p^-1)) to a 6-word window, drops the zero low word and
 * brings in the next input word; rcx carries the bit that can overflow that
 * addition into the following step. */
#define REDC_STEP(OFF, T0, T1, T2, T3, T4, T5, T6)                                 \
    movq T0, %rdx; imulq %r15, %rdx;                                               \
    xorl %eax, %eax;                                                               \
    mulxq fp_modulus+0(%rip), %rax, %rbx;  adcxq T0, %rax; adoxq %rbx, T1;         \
    mulxq fp_modulus+8(%rip), %rax, %rbx;  adcxq %rax, T1; adoxq %rbx, T2;         \
    mulxq fp_modulus+16(%rip), %rax, %rbx; adcxq %rax, T2; adoxq %rbx, T3;         \
    mulxq fp_modulus+24(%rip), %rax, %rbx; adcxq %rax, T3; adoxq %rbx, T4;         \
    mulxq fp_modulus+32(%rip), %rax, %rbx; adcxq %rax, T4; adoxq %rbx, T5;         \
    mulxq fp_modulus+40(%rip), %rax, %rbx; adcxq %rax, T5;                         \
    movl $0, %eax; adoxq %rax, %rbx; adcxq %rax, %rbx;                             \
    addq %rcx, %rbx;                                                               \
    movq OFF(%rsi), T6;                                                            \
    xorl %ecx, %ecx;                                                               \
    addq %rbx, T6;                                                                 \
    adcq $0, %rcx;

    .globl czk_fp_redc_adx
    .type czk_fp_redc_adx, @function
    .p2align 5
czk_fp_redc_adx:
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movabsq $0x89f3fffcfffcfffd, %r15
    movq 0(%rsi), %r8
    movq 8(%rsi), %r9
    movq 16(%rsi), %r10
    movq 24(%rsi), %r11
    movq 32(%rsi), %r12
    movq 40(%rsi), %r13
    xorl %ecx, %ecx
    REDC_STEP(48, %r8,  %r9,  %r10, %r11, %r12, %r13, %r14)
    REDC_STEP(56, %r9,  %r10, %r11, %r12, %r13, %r14, %r8)
    REDC_STEP(64, %r10, %r11, %r12, %r13, %r14, %r8,  %r9)
    REDC_STEP(72, %r11, %r12, %r13, %r14, %r8,  %r9,  %r10)
    REDC_STEP(80, %r12, %r13, %r14, %r8,  %r9,  %r10, %r11)
    REDC_STEP(88, %r13, %r14, %r8,  %r9,  %r10, %r11, %r12)
    /* (r14, r8, r9, r10, r11, r12) < 2p: subtract p unless it borrows */
    movq %r14, %rax; subq fp_modulus+0(%rip), %rax
    movq %r8,  %rbx; sbbq fp_modulus+8(%rip), %rbx
    movq %r9,  %rdx; sbbq fp_modulus+16(%rip), %rdx
    movq %r10, %rsi; sbbq fp_modulus+24(%rip), %rsi
    movq %r11, %rcx; sbbq fp_modulus+32(%rip), %rcx
    movq %r12, %r13; sbbq fp_modulus+40(%rip), %r13
    cmovcq %r14, %rax
    cmovcq %r8,  %rbx
    cmovcq %r9,  %rdx
    cmovcq %r10, %rsi
    cmovcq %r11, %rcx
    cmovcq %r12, %r13
    movq %rax, 0(%rdi)
    movq %rbx, 8(%rdi)
    movq %rdx, 16(%rdi)
    movq %rsi, 24(%rdi)
    movq %rcx, 32(%rdi)
    movq %r13, 40(%rdi)
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    ret
    .size czk_fp_redc_adx, .-czk_fp_redc_adx
#endif

#if defined(__ELF__)
    .section .note.GNU-stack, "", @progbits
#endif
