/** Arrays backed by MemorySegments. */
package dev.tegula.ffm;
