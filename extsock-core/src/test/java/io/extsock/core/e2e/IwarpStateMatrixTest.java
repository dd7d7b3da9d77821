package io.extsock.core.e2e;

import io.extsock.contract.SocketKind;
import io.extsock.contract.StateMatrixContract;
import java.util.List;

/**
 * The state matrix (every operation after every state) with both ends of every connection in
 * IWARP_MODE (the peer switches with the client, as in {@link IwarpSocketContractTest}).
 */
class IwarpStateMatrixTest extends StateMatrixContract {

    @Override
    protected List<SocketKind> kinds() {
        return List.of(IwarpSocketContractTest.IWARP_MODE);
    }
}
