package io.extsock;

import io.extsock.contract.SocketKind;
import io.extsock.contract.VirtualThreadContract;
import java.util.List;

/** Passthrough ExtendedSockets on virtual threads (JDK 21+). */
class PassthroughVirtualThreadTest extends VirtualThreadContract {

    @Override
    protected List<SocketKind> kinds() {
        return List.of(PassthroughSocketContractTest.PASSTHROUGH);
    }

    @Override
    protected String peerMode(SocketKind kind) {
        return "passthrough";
    }
}
