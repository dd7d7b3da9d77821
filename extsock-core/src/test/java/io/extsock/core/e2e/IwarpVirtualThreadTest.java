package io.extsock.core.e2e;

import io.extsock.contract.SocketKind;
import io.extsock.contract.VirtualThreadContract;
import java.util.List;

/** ExtendedSockets in IWARP_MODE on virtual threads (JDK 21+), the far ends switched too. */
class IwarpVirtualThreadTest extends VirtualThreadContract {

    @Override
    protected List<SocketKind> kinds() {
        return List.of(IwarpSocketContractTest.IWARP_MODE);
    }

    /**
     * 2,000 by default, 10,000 with {@code -Dextsock.long=true}: an IWARP_MODE connection holds
     * about 384 KiB of direct buffers (4 stream receive buffers of 64 KiB, 64 KiB of receive
     * staging, 64 KiB of gathering write) and 80 KiB of heap on each end, so 10,000 of them take
     * 3.9 GB of direct memory and 0.8 GB of heap in each of the two processes, and about two and
     * a half minutes on two cores, most of it the kernel zeroing that memory (docs/testing.md).
     */
    @Override
    protected int connections() {
        return Integer.getInteger("extsock.vt.connections", Boolean.getBoolean("extsock.long") ? 10_000 : 2_000);
    }

    @Override
    protected String peerMode(SocketKind kind) {
        return "iwarp";
    }
}
