package io.extsock.rdma.ffi;

import java.io.IOException;

/**
 * The host cannot run connections on an RDMA device: a library, a device or a resource limit
 * is missing. The message is one line that names what is missing and how to fix it.
 */
public class RdmaUnavailableException extends IOException {

    private static final long serialVersionUID = 1L;

    /** @param message what is missing, and the fix */
    public RdmaUnavailableException(String message) {
        super(message);
    }
}
