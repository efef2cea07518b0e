package dev.tegula.ffm;

/** What the host does with a mapped buffer, so that the provider moves only what it must. */
public enum MapMode {
    /** The host reads: the device's bytes are made visible; unmapping moves nothing back. */
    READ,
    /** The host writes every byte: nothing is read from the device; unmapping makes the writes the device's. */
    WRITE,
    /** The host reads and writes. */
    READ_WRITE
}
