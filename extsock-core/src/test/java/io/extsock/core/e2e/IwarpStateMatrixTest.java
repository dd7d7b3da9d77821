package io.extsock.core.e2e;

import io.extsock.contract.SocketKind;
import io.extsock.contract.StateMatrixContract;
import java.util.ArrayList;
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

    /**
     * README's documented difference: IWARP_MODE has no urgent data. On a connected socket that
     * is not closed, sendUrgentData is refused with a SocketException that says so; where the
     * socket's state makes Socket fail (never connected, closed) it fails as Socket does.
     */
    @Override
    protected List<String> documentedDifference(SocketKind kind, State state, Operation operation,
                                                List<String> plain) {
        if (operation != Operation.SEND_URGENT_DATA || state == State.UNCONNECTED || state == State.CLOSED
                || state == State.CLOSED_WHILE_READING) {
            return null;
        }
        List<String> documented = new ArrayList<>();
        for (String line : plain) {
            documented.add(line.startsWith("SEND_URGENT_DATA ")
                    ? "SEND_URGENT_DATA ! java.net.SocketException: Urgent data not supported in IWARP_MODE" : line);
        }
        return documented;
    }
}
