/**
 * What applications compile against: {@link io.extsock.ExtendedSocket} and friends, the
 * iWARP options, and the provider interface that an iWARP engine implements.
 */
module io.extsock.api {
    exports io.extsock;
    exports io.extsock.spi;
    exports io.extsock.verbs;
    // The option defaults and checks are shared with the engine, not with applications.
    exports io.extsock.internal to io.extsock.core;
    exports io.extsock.internal.nio to io.extsock.core;

    uses io.extsock.spi.IwarpProvider;
}
