package io.extsock;

import io.extsock.contract.SocketKind;
import io.extsock.contract.StateMatrixContract;
import java.util.List;

/** The state matrix (every operation after every state) for passthrough ExtendedSockets. */
class PassthroughStateMatrixTest extends StateMatrixContract {

    @Override
    protected List<SocketKind> kinds() {
        return List.of(PassthroughSocketContractTest.PASSTHROUGH);
    }
}
