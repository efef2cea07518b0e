# The streaming copy routine of dev.tegula.ffm.internal.StreamingCopy, written for the GNU assembler
# (AT&T syntax) from its description, so that an assembler other than the class's own encoder gives
# the bytes the golden-bytes test compares with. Every branch is forced to a 32-bit displacement
# ({disp32}), as the class encodes them. Regenerate streaming-copy.hex with streaming-copy.sh.
# void copy2d(rdi src, rsi srcStride, rdx dst, rcx dstStride, r8 rows, r9 rowBytes)
        .text
        push    %rbx
        test    %r8, %r8
        {disp32} je done
row:
        mov     %rdi, %r10
        mov     %rdx, %r11
        mov     %r9, %rax
head1:                                  # single bytes, plain, until the destination is 16-aligned
        test    $15, %r11d
        {disp32} je head16
        test    %rax, %rax
        {disp32} je next
        movzbl  (%r10), %ebx
        mov     %bl, (%r11)
        inc     %r10
        inc     %r11
        dec     %rax
        {disp32} jmp head1
head16:                                 # 16 bytes, plain, until the destination is 64-aligned
        test    $63, %r11d
        {disp32} je body
        cmp     $16, %rax
        {disp32} jb tail16
        movdqu  (%r10), %xmm0
        movdqu  %xmm0, (%r11)
        add     $16, %r10
        add     $16, %r11
        sub     $16, %rax
        {disp32} jmp head16
body:                                   # whole 64-byte lines, non-temporal
        cmp     $64, %rax
        {disp32} jb tail16
loop64:
        movdqu  (%r10), %xmm0
        movdqu  16(%r10), %xmm1
        movdqu  32(%r10), %xmm2
        movdqu  48(%r10), %xmm3
        movntdq %xmm0, (%r11)
        movntdq %xmm1, 16(%r11)
        movntdq %xmm2, 32(%r11)
        movntdq %xmm3, 48(%r11)
        add     $64, %r10
        add     $64, %r11
        sub     $64, %rax
        cmp     $64, %rax
        {disp32} jae loop64
tail16:                                 # the rest: 16 bytes, plain
        cmp     $16, %rax
        {disp32} jb tail1
        movdqu  (%r10), %xmm0
        movdqu  %xmm0, (%r11)
        add     $16, %r10
        add     $16, %r11
        sub     $16, %rax
        {disp32} jmp tail16
tail1:                                  # then single bytes, plain
        test    %rax, %rax
        {disp32} je next
        movzbl  (%r10), %ebx
        mov     %bl, (%r11)
        inc     %r10
        inc     %r11
        dec     %rax
        {disp32} jmp tail1
next:
        add     %rsi, %rdi
        add     %rcx, %rdx
        dec     %r8
        {disp32} jne row
done:
        sfence
        pop     %rbx
        ret
