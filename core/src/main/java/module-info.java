/**
 * Tegula core: element types, shapes, layouts, the XLA shape text form, validation, sizes and
 * index math. Touches no memory.
 */
module dev.tegula.core {
    exports dev.tegula.core;
    exports dev.tegula.core.internal to dev.tegula.ffm;
}
