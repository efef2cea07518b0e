// Times HPTT on the transpose cases of RelayoutBench, next to memcpy of the same bytes, so that the
// figures in docs/benchmarks.md can be re-run. Build HPTT per its own instructions (github.com/springer13/hptt),
// then compile this driver against it, e.g.
//   g++ -O3 -march=native -fopenmp -I$HPTT/include hptt_driver.cpp -L$HPTT/lib -lhptt -o hptt_driver
//   LD_LIBRARY_PATH=$HPTT/lib OMP_NUM_THREADS=2 ./hptt_driver --threads 1 --pages huge
// Plans are HPTT's tuned ones (hptt::MEASURE: it times candidate plans for up to about 10 s per case)
// unless --estimate asks for its untuned model-based plans (hptt::ESTIMATE). HPTT writes each block
// out with non-temporal (streaming) stores, which Java cannot issue; --no-streaming runs the same
// plan through HPTT's execute_expert<useStreamingStores = false> entry, with plain stores, to show
// what those stores are worth on the machine. --print-plan prints each chosen plan (HPTT's own print).
// Output: one line per case: median GB/s counted as bytes read + written (2 x array bytes), the median
// GB/s of memcpy of the same bytes (split in `threads` parts), their ratio, and the planning time.
// --case NAME (repeatable) runs only the named cases.
#include <hptt.h>
#include <omp.h>
#include <sys/mman.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct Case { const char* name; std::vector<int> dims; std::vector<int> perm; };   // row-major dims, NumPy-style perm

static void* alloc(size_t bytes, bool huge) {
    size_t align = 2u << 20;
    size_t len = (bytes + align - 1) / align * align;
    void* p = nullptr;
    if (posix_memalign(&p, align, len) != 0) { perror("posix_memalign"); exit(1); }
    if (huge) madvise(p, len, MADV_HUGEPAGE); else madvise(p, len, MADV_NOHUGEPAGE);
    memset(p, 1, len);   // fault the pages in after the advice
    return p;
}

static double seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char** argv) {
    int threads = 1, reps = 15;
    std::vector<std::string> only;   // --case NAME (repeatable): just these cases
    bool huge = true;
    bool estimate = false;
    bool streaming = true;
    bool printPlan = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--threads") threads = atoi(argv[++i]);
        else if (a == "--reps") reps = atoi(argv[++i]);
        else if (a == "--pages") huge = std::string(argv[++i]) == "huge";
        else if (a == "--estimate") estimate = true;
        else if (a == "--measure") estimate = false;
        else if (a == "--case") only.push_back(argv[++i]);
        else if (a == "--no-streaming") streaming = false;
        else if (a == "--print-plan") printPlan = true;
        else { fprintf(stderr, "unknown option %s (--threads N, --reps N, --pages huge|4k, --estimate, --measure, --no-streaming, --print-plan, --case NAME)\n", a.c_str()); return 2; }
    }
    std::vector<Case> cases = {
        {"f32_8192x8192_T", {8192, 8192}, {1, 0}},
        {"f32_3d_210", {256, 512, 512}, {2, 1, 0}},
        {"f32_3d_102", {256, 512, 512}, {1, 0, 2}},
        {"f32_3d_021", {256, 512, 512}, {0, 2, 1}},
        {"f32_4d_3210", {64, 64, 64, 64}, {3, 2, 1, 0}},
        {"f32_4d_0231", {64, 64, 64, 64}, {0, 2, 3, 1}},
    };
    printf("# HPTT %s plans, %s stores, %d thread(s), %s pages, %d repetitions, medians\n",
           estimate ? "ESTIMATE" : "MEASURE", streaming ? "streaming" : "plain", threads, huge ? "huge" : "4 KiB", reps);
    printf("| case | HPTT GB/s | memcpy GB/s | ratio | planning s |\n|---|---:|---:|---:|---:|\n");
    for (const Case& c : cases) {
        if (!only.empty() && std::find(only.begin(), only.end(), std::string(c.name)) == only.end()) continue;
        int dim = (int) c.dims.size();
        size_t n = 1;
        for (int d : c.dims) n *= d;
        size_t bytes = n * sizeof(float);
        float* A = (float*) alloc(bytes, huge);
        float* B = (float*) alloc(bytes, huge);
        float* C = (float*) alloc(bytes, huge);
        for (size_t i = 0; i < n; i++) A[i] = (float) (i % 1000003);
        // HPTT's convention: B[i_perm[0], i_perm[1], ...] = A[i_0, i_1, ...]; with useRowMajor the
        // dimensions are given major first, as NumPy's transpose takes them.
        double p0 = seconds();
        auto plan = hptt::create_plan(c.perm.data(), dim, 1.0f, A, c.dims.data(), nullptr, 0.0f, B, nullptr,
                                      estimate ? hptt::ESTIMATE : hptt::MEASURE, threads, nullptr, true);
        double planning = seconds() - p0;
        if (printPlan) plan->print();
        auto run = [&]() {
            if (streaming) plan->execute();
            // plain stores, beta = 0, threads spawned where there are several (as execute() does)
            else if (threads > 1) plan->execute_expert<false, true, true>();
            else plan->execute_expert<false, false, true>();
        };
        run();
        // check a few elements against B = A.transpose(perm) (row-major)
        std::vector<int> bd(dim);
        for (int k = 0; k < dim; k++) bd[k] = c.dims[c.perm[k]];
        for (size_t probe = 0; probe < n; probe += n / 97 + 1) {
            std::vector<int> bi(dim), ai(dim);
            size_t r = probe;
            for (int k = dim - 1; k >= 0; k--) { bi[k] = r % bd[k]; r /= bd[k]; }
            for (int k = 0; k < dim; k++) ai[c.perm[k]] = bi[k];
            size_t lin = 0;
            for (int k = 0; k < dim; k++) lin = lin * c.dims[k] + ai[k];
            if (B[probe] != A[lin]) { printf("%s: wrong result at %zu\n", c.name, probe); return 1; }
        }
        std::vector<double> th, tc;
        for (int r = 0; r < reps; r++) {
            double t0 = seconds();
            run();
            double t1 = seconds();
#pragma omp parallel for num_threads(threads)
            for (int k = 0; k < threads; k++) {
                size_t lo = bytes * k / threads, hi = bytes * (k + 1) / threads;
                memcpy((char*) C + lo, (char*) A + lo, hi - lo);
            }
            double t2 = seconds();
            th.push_back(t1 - t0);
            tc.push_back(t2 - t1);
        }
        double gh = 2.0 * bytes / median(th) / 1e9, gc = 2.0 * bytes / median(tc) / 1e9;
        printf("| %s | %.2f | %.2f | %.2f | %.1f |\n", c.name, gh, gc, gh / gc, planning);
        free(A); free(B); free(C);
    }
    return 0;
}
