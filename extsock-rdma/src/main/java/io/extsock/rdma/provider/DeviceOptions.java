package io.extsock.rdma.provider;

import io.extsock.IwarpOptions;
import io.extsock.verbs.IwarpSetup;
import java.net.SocketOption;
import java.util.Map;

/**
 * The iWARP options a device connection uses, with extsock's defaults. The MPA ones (CRC,
 * markers, revision, ready-to-receive, FPDU size) are the kernel's to negotiate on a device and
 * are not read; nor is FALLBACK: a device connection never falls back to plain TCP.
 *
 * @param ird         inbound RDMA Reads offered (rdma_cm carries at most 255)
 * @param ord         outbound RDMA Reads asked for (at most 255)
 * @param privateData the application's MPA private data
 * @param mpaTimeout  how long connecting, or accepting one connection, may take, in milliseconds
 * @param streams     whether the socket's streams own Sends and Receives
 * @param setup       what runs before the connection is accepted or connected
 */
record DeviceOptions(int ird, int ord, byte[] privateData, int mpaTimeout, boolean streams, IwarpSetup setup) {

    /** The most IRD or ORD that {@code struct rdma_conn_param} carries (one octet each). */
    static final int MAX_READ_DEPTH = 255;

    static DeviceOptions of(Map<SocketOption<?>, Object> options) {
        return new DeviceOptions(
                Math.min(MAX_READ_DEPTH, (Integer) options.getOrDefault(IwarpOptions.IRD, 16)),
                Math.min(MAX_READ_DEPTH, (Integer) options.getOrDefault(IwarpOptions.ORD, 16)),
                ((byte[]) options.getOrDefault(IwarpOptions.PRIVATE_DATA, new byte[0])).clone(),
                (Integer) options.getOrDefault(IwarpOptions.MPA_TIMEOUT, 10_000),
                (Boolean) options.getOrDefault(IwarpOptions.STREAMS, true),
                (IwarpSetup) options.getOrDefault(IwarpOptions.SETUP, (IwarpSetup) connection -> { }));
    }
}
