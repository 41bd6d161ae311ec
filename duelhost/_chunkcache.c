/*
 * duelhost._chunkcache: keep the interpreter's freed frame-stack chunks for reuse.
 *
 * Why: CPython (3.11-3.13) keeps the frames of Python calls on a per-thread
 * data stack made of 16 KiB chunks.  Every chunk after the first is taken from
 * the "arena allocator" (mmap) when the call depth crosses into it and given back
 * (munmap) when the frame that opened it returns.  A search that recurses
 * Lua -> Python -> Lua (a card filter inside Group.CheckWithSumGreater inside an
 * activation check) oscillates across such a boundary, and every filter call then
 * pays an mmap, an munmap and fresh zero pages: 36% of a long search's time was
 * measured in those system calls (benchmarks/README.md).
 *
 * What: install() wraps the arena allocator (PyObject_SetArenaAllocator).  A
 * freed block of at most MAX_CACHED_BYTES goes onto a small stack instead of back
 * to the system, and the next request of the same size takes it from there.
 * Everything else, and everything past MAX_CACHED_BLOCKS, goes to the allocator
 * that was installed before, so blocks of either origin are always released by
 * the original code.  The interpreter calls the arena allocator with the GIL
 * held, so no lock is needed.  At most MAX_CACHED_BLOCKS * 64 KiB stay mapped.
 *
 * This changes no Python-visible behaviour: it only decides whether a chunk of
 * memory is returned to the system or kept for the next frame.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAX_CACHED_BLOCKS 32
#define MAX_CACHED_BYTES (64 * 1024)

static PyObjectArenaAllocator original;
static int installed = 0;
static void *blocks[MAX_CACHED_BLOCKS];
static size_t block_sizes[MAX_CACHED_BLOCKS];
static int cached = 0;
static unsigned long long reused = 0, allocated = 0, released = 0;

static void *
cached_alloc(void *ctx, size_t size)
{
    (void)ctx;
    for (int i = cached - 1; i >= 0; i--) {
        if (block_sizes[i] == size) {
            void *block = blocks[i];
            cached--;
            blocks[i] = blocks[cached];
            block_sizes[i] = block_sizes[cached];
            reused++;
            return block;
        }
    }
    allocated++;
    return original.alloc(original.ctx, size);
}

static void
cached_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    if (ptr != NULL && size <= MAX_CACHED_BYTES && cached < MAX_CACHED_BLOCKS) {
        blocks[cached] = ptr;
        block_sizes[cached] = size;
        cached++;
        return;
    }
    released++;
    original.free(original.ctx, ptr, size);
}

static PyObject *
chunkcache_install(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    if (!installed) {
        PyObjectArenaAllocator mine;
        PyObject_GetArenaAllocator(&original);
        mine.ctx = NULL;
        mine.alloc = cached_alloc;
        mine.free = cached_free;
        PyObject_SetArenaAllocator(&mine);
        installed = 1;
    }
    Py_RETURN_NONE;
}

static PyObject *
chunkcache_stats(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    return Py_BuildValue("{s:O,s:K,s:K,s:K,s:i}", "installed", installed ? Py_True : Py_False,
                         "reused", reused, "allocated", allocated, "released", released,
                         "cached", cached);
}

static PyMethodDef chunkcache_methods[] = {
    {"install", chunkcache_install, METH_NOARGS,
     "Wrap the arena allocator so freed frame-stack chunks are kept for reuse (idempotent)."},
    {"stats", chunkcache_stats, METH_NOARGS,
     "Counters: installed, reused (requests served from the cache), allocated and released "
     "(passed to the original allocator), cached (blocks held now)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef chunkcache_module = {
    PyModuleDef_HEAD_INIT, "duelhost._chunkcache",
    "Keeps freed frame-stack chunks of the interpreter for reuse (installed by importing duelhost).",
    -1, chunkcache_methods,
};

PyMODINIT_FUNC
PyInit__chunkcache(void)
{
    return PyModule_Create(&chunkcache_module);
}
