/// A stage of a session's chain around a whole call: every attempt and every wait of it, or none when the
/// stage answers the call itself (a stored response). Add your own to ``Session/Configuration/callStages``;
/// the order of the built-in ones is ``StageOrder``.
///
/// ```swift
/// struct Timing: CallStage {
///     func run(_ call: Call, next: CallNext) async -> ResponseOutcome {
///         let start = ContinuousClock.now
///         defer { print(call.requestName, ContinuousClock.now - start) }
///         return await next()
///     }
/// }
/// ```
public protocol CallStage: Sendable {
    /// Runs `call`: `next()` runs the stages inside this one and then the call's attempts, and returns how
    /// the call ended (its last response, or why it failed). Return without calling it to answer the call
    /// yourself; call it once.
    nonisolated(nonsending) func run(_ call: Call, next: CallNext) async -> ResponseOutcome
}

/// The rest of a call's chain, below the stage that holds it.
public struct CallNext: Sendable {
    let call: Call
    let index: Int

    /// Runs the rest of the chain.
    public nonisolated(nonsending) func callAsFunction() async -> ResponseOutcome { await call.chain.runCall(call, from: index) }
}
