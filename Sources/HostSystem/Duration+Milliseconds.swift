extension Duration {
    /// The duration in milliseconds, fraction included (`.microseconds(1500)` is 1.5): the one
    /// conversion every timing, time limit and report uses. Divide by 1000 for seconds.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
