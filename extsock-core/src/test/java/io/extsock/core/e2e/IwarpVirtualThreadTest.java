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

    @Override
    protected String peerMode(SocketKind kind) {
        return "iwarp";
    }
}
