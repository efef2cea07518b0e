/*
 * A tiny native DLPack peer for DLPackNativeTest: it produces tensors Tegula imports and consumes
 * tensors Tegula exports. The structs are declared here from the DLPack 1.x ABI (field order and
 * types of dlpack.h), so the test needs no header. Built by the test: cc -shared -fPIC.
 */
#include <stdint.h>
#include <stdlib.h>

typedef struct { uint32_t major, minor; } peer_version;
typedef struct { int32_t device_type, device_id; } peer_device;
typedef struct { uint8_t code, bits; uint16_t lanes; } peer_data_type;
typedef struct {
    void *data;
    peer_device device;
    int32_t ndim;
    peer_data_type dtype;
    int64_t *shape;
    int64_t *strides;
    uint64_t byte_offset;
} peer_tensor;
typedef struct peer_versioned {
    peer_version version;
    void *manager_ctx;
    void (*deleter)(struct peer_versioned *self);
    uint64_t flags;
    peer_tensor dl_tensor;
} peer_versioned;
typedef struct peer_legacy {
    peer_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct peer_legacy *self);
} peer_legacy;

static int versioned_deletes;
static int legacy_deletes;

static void delete_versioned(peer_versioned *t) {
    versioned_deletes++;
    free(t->dl_tensor.data);
    free(t->dl_tensor.shape);    /* shape and strides share one allocation */
    free(t);
}

static void delete_legacy(peer_legacy *t) {
    legacy_deletes++;
    free(t->dl_tensor.data);
    free(t->dl_tensor.shape);
    free(t);
}

int peer_versioned_deletes(void) { return versioned_deletes; }
int peer_legacy_deletes(void) { return legacy_deletes; }

/* An f32 rows x cols tensor holding 0, 1, 2, ... in row-major order. column_major stores it
 * transposed in memory (strides {1, rows}); null_strides leaves strides NULL (row-major). */
peer_versioned *peer_make_f32(int64_t rows, int64_t cols, uint32_t major, int column_major, int null_strides) {
    peer_versioned *t = calloc(1, sizeof *t);
    float *data = malloc(sizeof(float) * (size_t) (rows * cols));
    int64_t *dims = malloc(sizeof(int64_t) * 4);
    dims[0] = rows;
    dims[1] = cols;
    dims[2] = column_major ? 1 : cols;
    dims[3] = column_major ? rows : 1;
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j++) {
            data[i * dims[2] + j * dims[3]] = (float) (i * cols + j);
        }
    }
    t->version.major = major;
    t->version.minor = 0;
    t->deleter = delete_versioned;
    t->dl_tensor.data = data;
    t->dl_tensor.device.device_type = 1; /* kDLCPU */
    t->dl_tensor.ndim = 2;
    t->dl_tensor.dtype.code = 2;         /* kDLFloat */
    t->dl_tensor.dtype.bits = 32;
    t->dl_tensor.dtype.lanes = 1;
    t->dl_tensor.shape = dims;
    t->dl_tensor.strides = null_strides ? NULL : dims + 2;
    return t;
}

/* A legacy (pre-1.0) int32 vector of n elements holding 10, 11, 12, ... */
peer_legacy *peer_make_legacy_i32(int64_t n) {
    peer_legacy *t = calloc(1, sizeof *t);
    int32_t *data = malloc(sizeof(int32_t) * (size_t) n);
    int64_t *dims = malloc(sizeof(int64_t) * 2);
    for (int64_t i = 0; i < n; i++) {
        data[i] = (int32_t) (10 + i);
    }
    dims[0] = n;
    dims[1] = 1;
    t->deleter = delete_legacy;
    t->dl_tensor.data = data;
    t->dl_tensor.device.device_type = 1;
    t->dl_tensor.ndim = 1;
    t->dl_tensor.dtype.code = 0;         /* kDLInt */
    t->dl_tensor.dtype.bits = 32;
    t->dl_tensor.dtype.lanes = 1;
    t->dl_tensor.shape = dims;
    t->dl_tensor.strides = dims + 1;
    return t;
}

/* ---- the consumer side: read and write a tensor Tegula exported, through its strides ---- */

void *peer_data(peer_versioned *t) { return t->dl_tensor.data; }
uint64_t peer_flags(peer_versioned *t) { return t->flags; }
uint32_t peer_major(peer_versioned *t) { return t->version.major; }
int32_t peer_ndim(peer_versioned *t) { return t->dl_tensor.ndim; }
int64_t peer_shape(peer_versioned *t, int d) { return t->dl_tensor.shape[d]; }
int64_t peer_stride(peer_versioned *t, int d) { return t->dl_tensor.strides[d]; }
uint64_t peer_byte_offset(peer_versioned *t) { return t->dl_tensor.byte_offset; }
int peer_dtype(peer_versioned *t) { return t->dl_tensor.dtype.code << 16 | t->dl_tensor.dtype.bits << 8 | t->dl_tensor.dtype.lanes; }

static float *f32_at(peer_versioned *t, int64_t i, int64_t j) {
    char *base = (char *) t->dl_tensor.data + t->dl_tensor.byte_offset;
    int64_t *s = t->dl_tensor.strides;
    if (s == NULL) {                     /* NULL strides: compact row-major */
        return (float *) base + i * t->dl_tensor.shape[1] + j;
    }
    return (float *) base + i * s[0] + j * s[1];
}

float peer_get_f32(peer_versioned *t, int64_t i, int64_t j) { return *f32_at(t, i, j); }
void peer_set_f32(peer_versioned *t, int64_t i, int64_t j, float v) { *f32_at(t, i, j) = v; }

/* Element i of a packed 4-bit signed vector: little bit-endian, element 0 in the low nibble. */
int peer_get_s4(peer_versioned *t, int64_t i) {
    int64_t e = (int64_t) t->dl_tensor.byte_offset * 2 + i * t->dl_tensor.strides[0];
    uint8_t byte = ((uint8_t *) t->dl_tensor.data)[e / 2];
    int v = (e % 2) ? byte >> 4 : byte & 15;
    return v >= 8 ? v - 16 : v;
}

void peer_release(peer_versioned *t) { t->deleter(t); }
