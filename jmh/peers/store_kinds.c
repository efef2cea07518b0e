// What each kind of x86 store writes per second into memory that is not in the caches, so that the
// "what limits" figures of docs/benchmarks.md can be re-run: a 256 MiB destination (huge pages where
// the kernel gives them) is written piece by piece from a source buffer of one piece, which stays in
// the caches, as a transpose's small buffer would. Kinds:
//   plain     vector loads and stores (512-bit where the compiler targets AVX-512, else 256-bit);
//             a plain store first reads the line it writes (read for ownership)
//   stream    the same loads, non-temporal stores (_mm512_stream_ps / _mm256_stream_ps), which
//             write whole lines without reading them; the JDK issues them only in bulk copies of
//             2.5 MiB and more, and Java code cannot issue them at all
//   movsb     rep movsb: what glibc's memcpy runs between its rep_movsb_threshold and its
//             non_temporal_threshold (ld.so --list-diagnostics prints both)
//   memcpy    the C library's memcpy of each piece
//   stosb     rep stosb, zeroing: what glibc's memset runs for large sizes
// Build and run (x86-64, gcc or clang):
//   gcc -O2 -march=native jmh/peers/store_kinds.c -o store_kinds
//   ./store_kinds [PIECE_BYTES]      (default 262144; a multiple of 64)
// Output: GB/s written, three rounds of each kind in turn.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define DEST_BYTES (256UL << 20)

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#ifdef __AVX512F__
#define STEP 64
static void plain(char *d, const char *s, size_t n) {
    for (size_t i = 0; i < n; i += STEP) _mm512_storeu_ps((float *) (d + i), _mm512_loadu_ps((const float *) (s + i)));
}
static void stream(char *d, const char *s, size_t n) {
    for (size_t i = 0; i < n; i += STEP) _mm512_stream_ps((float *) (d + i), _mm512_loadu_ps((const float *) (s + i)));
    _mm_sfence();
}
#else
#define STEP 32
static void plain(char *d, const char *s, size_t n) {
    for (size_t i = 0; i < n; i += STEP) _mm256_storeu_ps((float *) (d + i), _mm256_loadu_ps((const float *) (s + i)));
}
static void stream(char *d, const char *s, size_t n) {
    for (size_t i = 0; i < n; i += STEP) _mm256_stream_ps((float *) (d + i), _mm256_loadu_ps((const float *) (s + i)));
    _mm_sfence();
}
#endif

static void movsb(char *d, const char *s, size_t n) {
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void libc_memcpy(char *d, const char *s, size_t n) {
    memcpy(d, s, n);
}

static void stosb(char *d, const char *s, size_t n) {
    (void) s;
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(0) : "memory");
}

int main(int argc, char **argv) {
    size_t piece = argc > 1 ? strtoul(argv[1], NULL, 0) : 262144;
    if (piece == 0 || piece % 64 != 0 || piece > DEST_BYTES) {
        fprintf(stderr, "PIECE_BYTES: %zu is not a positive multiple of 64 up to %lu\n", piece, DEST_BYTES);
        return 2;
    }
    char *dst = mmap(NULL, DEST_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *src = aligned_alloc(4096, (piece + 4095) / 4096 * 4096);
    if (dst == MAP_FAILED || src == NULL) {
        perror("allocation");
        return 1;
    }
    madvise(dst, DEST_BYTES, MADV_HUGEPAGE);
    memset(dst, 1, DEST_BYTES);   // every page mapped before timing
    memset(src, 2, piece);
    void (*kinds[])(char *, const char *, size_t) = {plain, stream, movsb, libc_memcpy, stosb};
    const char *names[] = {"plain", "stream", "movsb", "memcpy", "stosb"};
    printf("piece %zu bytes, %d-byte vectors, %lu MiB written per run\n", piece, STEP, DEST_BYTES >> 20);
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < 5; k++) {
            double t0 = seconds();
            for (size_t o = 0; o + piece <= DEST_BYTES; o += piece) {
                kinds[k](dst + o, src, piece);
            }
            double t = seconds() - t0;
            printf("%-7s %6.2f GB/s written\n", names[k], (double) (DEST_BYTES / piece * piece) / t / 1e9);
        }
    }
    return 0;
}
