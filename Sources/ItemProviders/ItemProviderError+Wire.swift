public import ExtensionIPC

extension WireError {
    /// An item-provider error as it crosses between host and extension: its domain, code and
    /// message (the cause stays on its side). ``ItemProviderError/init(_:)`` is the way back.
    public init(_ error: ItemProviderError) {
        self.init(domain: error.domain, code: error.code.rawValue, message: error.message)
    }
}

extension ItemProviderError {
    /// The item-provider error a ``WireError`` from the other side stands for (same domain, code
    /// and message).
    public init(_ error: WireError) {
        self.init(Code(domain: error.domain, rawValue: error.code), error.message)
    }
}
