/**
 * The direct memory of IWARP_MODE connections: one {@link io.extsock.core.memory.DirectBufferPool}
 * per JVM hands out 64 KiB blocks; each connection holds its blocks through a {@link
 * io.extsock.core.memory.MemoryLease} (its base always granted, window growth within the
 * JVM-wide {@link io.extsock.core.memory.MemoryBudget}) and gives them all back at close, with no
 * garbage collection needed; blocks beyond what the pool keeps are freed at once ({@link
 * io.extsock.core.memory.DirectMemoryRelease}).
 */
package io.extsock.core.memory;
