extension Session {
    /// The chain of `kind` for a session of `configuration`, its stages in ``StageOrder``: those the
    /// configuration or the kind does not need are left out. The one place the order is applied.
    static func chain(
        _ kind: ChainKind, _ configuration: Configuration, origins: OriginTable?, bulkheads: Bulkheads?
    ) -> Chain {
        var call: [(StageOrder, any CallStage)] = []
        var attempt: [(StageOrder, any AttemptStage)] = []
        let observers = configuration.observers
        if !observers.isEmpty { call.append((.observers, ObservingCalls(observers: observers))) }
        if kind.contains(.cache), let cache = configuration.responseCache { call.append((.cache, CachingResponses(cache: cache))) }
        call += configuration.callStages.map { (.callStages, $0) }
        if kind.contains(.loop) { call.append((.attemptLoop, AttemptLoop())) }

        if !observers.isEmpty { attempt.append((.attemptObservers, ObservingAttempts(observers: observers))) }
        // The conclusion is a step of its own only where something stands above it or error handlers follow it.
        let concludesInAttempt = observers.isEmpty && configuration.errorHandlers.isEmpty
        if !concludesInAttempt { attempt.append((.conclusion, Conclusion(errorHandlers: configuration.errorHandlers))) }
        if !configuration.interceptors.isEmpty || kind.contains(.interceptors) {
            attempt.append((.interceptors, Intercepting(sessionInterceptors: configuration.interceptors.inRunningOrder())))
        }
        attempt += configuration.attemptStages.map { (.attemptStages, $0) }
        if kind.contains(.ownStages) { attempt.append((.attemptStages, CallsOwnStages())) }
        if kind.contains(.cache), configuration.responseCache != nil { attempt.append((.cacheValidators, ValidatingCachedResponses())) }
        if kind.contains(.hedging) { attempt.append((.hedging, HedgingRequests())) }
        attempt.append((.redirects, FollowingRedirects()))
        if let jar = configuration.cookies { attempt.append((.cookies, KeepingCookies(jar: jar))) }
        if let origins { attempt.append((.originProtection, ProtectingOrigins(origins: origins, bulkheads: bulkheads))) }
        return Chain(call: call, attempt: attempt, concludesInAttempt: concludesInAttempt)
    }

    /// The stages a call of `kind` runs through on this session, outermost first, the transport last: the
    /// chain as data, for tests and for Docs/Architecture.md's drawing.
    func stageOrder(for kind: ChainKind) -> [StageOrder] { chains.chain(for: kind).order }
}
