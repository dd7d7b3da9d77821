/**
 * The RDMA Protocol (RFC 5040) headers as sans-I/O code: the RDMAP control field carried in
 * DDP's RsvdULP octet, the RDMA Read Request header and the Terminate header.
 *
 * <p>{@link io.extsock.core.rdmap.RdmapHeaderEncoder} writes the complete DDP and RDMAP headers of
 * every message kind; {@link io.extsock.core.rdmap.RdmapSegmentHeader} decodes and checks a
 * received segment's headers into a typed description to dispatch on. The opcodes of RFC 7306
 * are known by name ({@link io.extsock.core.rdmap.RdmapOpcode}) and refused as unexpected.
 *
 * <p>Instances are not thread-safe: each belongs to one stream direction and is used by one
 * thread at a time.
 */
package io.extsock.core.rdmap;
