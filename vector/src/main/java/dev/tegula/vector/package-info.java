/** The relayout engine: copies arrays between XLA layouts with Vector API and scalar reference kernels. */
package dev.tegula.vector;
