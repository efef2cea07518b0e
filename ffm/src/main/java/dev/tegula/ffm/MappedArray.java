package dev.tegula.ffm;

import java.lang.foreign.MemorySegment;

/**
 * An array's memory mapped into host memory ({@link Array#map}): {@link #array()} is a host array in
 * the same layout over the same bytes until {@link #close()}. Closing unmaps (for a device array,
 * the provider's unmap, awaited: the device sees the host's writes once {@code close} returns) and
 * closes the host view: any later access to it throws {@link IllegalStateException}. Closing a
 * second time does nothing. One thread uses a mapping at a time.
 */
public final class MappedArray implements AutoCloseable {
    private final Array source;
    private final Array view;
    private final Mapping mapping;
    private boolean closed;

    private MappedArray(Array source, Array view, Mapping mapping) {
        this.source = source;
        this.view = view;
        this.mapping = mapping;
    }

    static MappedArray of(Array a, MapMode mode) {
        if (mode != MapMode.READ && a.isReadOnly()) {
            throw new UnsupportedOperationException("map: " + a.shape + " is read-only; map it for READ");
        }
        if (a.device == null) {
            if (!a.isHostAccessible()) {
                throw Array.notHostAccessible(a.shape, a.provider);
            }
            return new MappedArray(a, a, null);
        }
        a.device.checkAccess();
        Mapping m = a.provider.map(a.device, mode);
        MemorySegment s = m.segment();
        boolean readOnly = a.isReadOnly() || mode == MapMode.READ;
        try {
            Array view = new Array(readOnly ? s.asReadOnly() : s, a.shape, a.slotOffset, a.strides, readOnly,
                    MemorySpaces.host());
            return new MappedArray(a, view, m);
        } catch (RuntimeException e) {
            m.unmap().await();
            throw e;
        }
    }

    /** {@return the array that was mapped} */
    public Array source() {
        return source;
    }

    /**
     * {@return the host view: the source's shape and layout (its {@code S(n)} kept), host memory}
     *
     * @throws IllegalStateException when used after {@link #close()} (for a device array)
     */
    public Array array() {
        return view;
    }

    /** {@return true if the host view is the source array itself (host memory, nothing mapped)} */
    public boolean isIdentity() {
        return mapping == null;
    }

    /** Unmaps and waits for the unmap to complete; the host view is closed. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (mapping != null) {
            mapping.unmap().await();
        }
    }
}
