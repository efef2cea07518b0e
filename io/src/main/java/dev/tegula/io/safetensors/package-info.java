/**
 * Hugging Face safetensors files: {@link dev.tegula.io.safetensors.SafeTensors} reads a file
 * zero-copy from a mapping ({@link dev.tegula.io.safetensors.SafeTensorsFile}: the header and the
 * tensors of one mapping) and writes one, whole or streamed tensor by tensor
 * ({@link dev.tegula.io.safetensors.SafeTensorsWriter});
 * {@link dev.tegula.io.safetensors.SafeTensorsHeader} is a file's validated header, and the one
 * writer of the header bytes. A sharded checkpoint is a directory of such files:
 * {@link dev.tegula.io.safetensors.SafeTensorsIndex} is its index file (which shard holds each
 * tensor), read and written, and {@link dev.tegula.io.safetensors.SafeTensorsCheckpoint} opens the
 * directory, its index and its shards' headers checked against each other. A malformed file throws {@link dev.tegula.io.TensorFormatException}
 * naming the field and value.
 */
package dev.tegula.io.safetensors;
