package dev.tegula.vector;

/**
 * How {@link Relayout#copy(dev.tegula.ffm.Array, dev.tegula.ffm.Array, DeviceRoute)} moves a relayout
 * between host memory and a device.
 *
 * <p>Both routes move each byte between host and device once and give the same bytes.
 * {@link #MAPPED} runs the host engine straight on a mapping of the device buffer; {@link #STAGED}
 * copies the host array's bytes as they are into a device buffer of the same layout (or, towards the
 * host, relayouts on the device into the host array's layout and then copies) and lets the device's
 * own relayout ({@link dev.tegula.ffm.MemorySpaceProvider#relayout}) change the layout. Which is
 * faster depends on the device: on one that shares memory with the host and is the CPU itself the
 * engine usually wins, on a discrete GPU the device's kernel over its own memory usually does.
 * {@link #MEASURE}, the default, lets the first runs decide.
 */
public enum DeviceRoute {
    /**
     * Measured per pair of shapes and device: the first two relayouts of a pair run {@link #MAPPED},
     * the next two {@link #STAGED}, and every later one the route whose faster run was faster. A pair
     * the device has no relayout for, views, and relayouts of less than 1 MiB
     * always run {@link #MAPPED}.
     */
    MEASURE,
    /** The host engine on a mapping of the device buffer (the destination mapped for writing only when it is a whole buffer). */
    MAPPED,
    /**
     * The bytes copied as they are, the layout changed by the device's relayout; {@link #MAPPED}
     * where the host array is a view or the device has no relayout for the pair.
     */
    STAGED
}
