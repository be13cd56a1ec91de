/** The network protocol version; both ends must speak the same one, and a handshake with another is refused. */
export const PROTOCOL_VERSION = 1;
