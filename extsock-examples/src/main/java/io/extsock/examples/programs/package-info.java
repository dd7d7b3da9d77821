/**
 * Short programs to copy: each is one file with a {@code main}, runs on loopback without
 * arguments, and shows one way to use extsock.
 *
 * <ul>
 *   <li>{@link io.extsock.examples.programs.IwarpStreamEcho}: ordinary socket streams over a
 *       connection switched to IWARP_MODE, and what the switch agreed on;</li>
 *   <li>{@link io.extsock.examples.programs.RdmaWriteAndRead}: registered memory, an RDMA Write
 *       and an RDMA Read, and their completions;</li>
 *   <li>{@link io.extsock.examples.programs.SendAndReceive}: posted Sends and Receives, the
 *       streams turned off.</li>
 * </ul>
 */
package io.extsock.examples.programs;
