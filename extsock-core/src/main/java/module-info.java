/** The software iWARP provider: MPA, DDP and RDMAP codecs, verbs and the progress engine. */
module io.extsock.core {
    requires io.extsock.api;
}
