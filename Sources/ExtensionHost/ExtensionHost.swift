import AppGroups
import ExtensionIPC
import Foundation
import HeadlessScreens
package import HostSystem

/// Runs share extensions as confined, supervised child processes.
public enum ExtensionHost {
    /// Launches the extension described by `launch`, serves it through `session` until it exits,
    /// and reports how it ended.
    ///
    /// While it runs, a watchdog samples its real footprint (``HostSystem/ProcessMonitor``) every
    /// ``ExtensionLimits/samplingInterval`` and counts its process tree; going over the memory or
    /// process limit, or past the timeout, kills the whole tree with `SIGKILL`. After
    /// `completeRequest` or `cancelRequest` it has two seconds to exit before it is killed (the
    /// outcome stays what it asked for). A protocol violation kills it and reports a crash.
    ///
    /// With `prepared` (a launcher started earlier for this launcher path and these limits, see
    /// ``PreparedLauncher``), the run takes it instead of spawning one: it is already in its memory
    /// cgroup and is sent the same command line a spawned launcher would get.
    /// - Throws: ``HostSystem/Errno`` when the launcher cannot be started (a missing file);
    ///   everything that happens after the spawn is in the report.
    public static func run(
        _ launch: ExtensionLaunch, session: some ExtensionSession, prepared: PreparedLauncher? = nil
    ) async throws -> ExtensionReport {
        let start = ContinuousClock.now
        let wantsBroker = session.wantsScopeBroker && launch.kernelScopes
        let early = prepared?.take(launcher: launch.launcher, limits: launch.limits)
        var descriptors = try early?.descriptors ?? LaunchDescriptors.make(scopeBroker: wantsBroker)
        if early != nil, !wantsBroker {
            // Started before the host knew: the launcher closes its copy unused.
            try? descriptors.broker?.0.close()
            try? descriptors.broker?.1.close()
            descriptors.broker = nil
        }
        let connection = Connection(socket: descriptors.mine)
        let channel = ExtensionChannel(connection: connection, onProgress: launch.onProgress)
        // The kernel's limit behind the watchdog: a cgroup where one can be made, else RLIMIT_DATA.
        var cgroup: MemoryCgroup?
        var memory = MemoryEnforcement.watchdog
        switch launch.limits.memoryEnforcement {
        case .best:
            cgroup =
                early?.cgroup
                ?? MemoryCgroup.make(name: cgroupName(), limitBytes: launch.limits.cgroupCeilingBytes)
            memory = cgroup == nil ? .rlimitData : .cgroup
        case .rlimitData: memory = .rlimitData
        case .watchdog: memory = .watchdog
        }
        defer { cgroup?.remove() }
        // The security-scope broker: the launcher hands over a seccomp listener on this socket.
        let brokerSockets = descriptors.broker
        let policy = launch.policy(memory: memory, cgroupProcs: cgroup?.procsFile)
        let reportCapture = OutputCapture(reading: descriptors.report.readEnd, keepingAtMost: 4096)
        let logCapture = OutputCapture(reading: descriptors.log.readEnd, keepingAtMost: launch.logLimit)
        let tracker = RunTracker(start: start)
        var broker: ScopeBroker?
        let pid: ProcessID
        let status: TerminationStatus
        do {
            let child: ChildProcess
            if let early {
                // Already in its cgroup: the command line completes it.
                let command = policy.deferredArguments(
                    program: launch.executable, arguments: launch.arguments, environment: launch.environmentEntries(),
                    workingDirectory: launch.containerURL.path, scopeBroker: brokerSockets != nil)
                // A launcher that died already (its report says why) reads nothing: the run reports it.
                try? early.arguments.sendAll(command)
                try? early.arguments.close()
                child = early.child
            } else {
                var spawn = policy.spawn(
                    launcher: launch.launcher, program: launch.executable, arguments: launch.arguments,
                    socket: descriptors.theirs.descriptor, report: descriptors.report.writeEnd,
                    standardOutput: descriptors.log.writeEnd, standardError: descriptors.log.writeEnd,
                    scopeBroker: brokerSockets?.1.descriptor)
                spawn.environment = launch.environmentEntries()
                spawn.workingDirectory = launch.containerURL.path
                child = try ChildProcess(spawning: spawn)
            }
            (pid, status) = try await withChildProcess(
                adopting: child, teardown: Teardown(gracePeriod: .milliseconds(200))
            ) { child in
                descriptors.closeChildEnds()
                if let (ours, _) = brokerSockets {
                    // The program blocks at its first open until the broker answers: start it now.
                    if let listener = await Self.receiveListener(ours, from: child) {
                        let started = ScopeBroker(
                            listener: listener, lenient: launch.process.scopeMode == .lenient,
                            isAccessible: { session.isScopeStarted($0) })
                        started.start()
                        broker = started
                    }
                    try? ours.close()
                    session.attach(broker)
                }
                await supervise(
                    child, launch: launch, channel: channel, session: session, tracker: tracker, cgroup: cgroup)
                return child.pid
            }
        } catch {
            descriptors.closeChildEnds()
            try? brokerSockets?.0.close()
            connection.close()
            throw error
        }
        connection.close()
        broker?.stop()
        await session.finish()
        let sandboxText = (try? await reportCapture.output().text) ?? ""
        let log = try? await logCapture.output()
        let kernel = KernelMemoryLimit(
            enforcement: memory, cgroupOOMKills: cgroup?.oomKills ?? 0, cgroupPeakBytes: cgroup?.peakBytes)
        var report = tracker.report(
            pid: pid, status: status, sandbox: SandboxReport(parsing: sandboxText), limits: launch.limits,
            kernel: kernel, channel: channel, log: log?.text ?? "", dropped: log?.droppedByteCount ?? 0)
        report.scopeEnforcement =
            !session.wantsScopeBroker ? .notNeeded : broker == nil ? .apiOnly : .kernel
        report.refusals += (broker?.refusals ?? []).map { "kernel: \($0)" }
        return report
    }

    /// The last sample that walked the extension's page tables (`smaps_rollup`): its footprint and
    /// the constant-time upper bound (`status`) it was taken at.
    package struct FootprintWalk: Sendable {
        package var footprintBytes: Int
        package var upperBoundBytes: Int
        var proportionalBytes: Int?
        var privateDirtyBytes: Int?
    }

    /// Every sample reads `status` (constant time); the walk of every page table behind the real
    /// footprint (`smaps_rollup`, about a millisecond of the host's CPU for a process that maps a
    /// 100 MB program — taken from the extension on a 2-core machine) is repeated only when the
    /// footprint's upper bound moved by ``walkThreshold`` since the last walk, or could be over
    /// `limit`. Between walks the footprint is the last walk's: the peak reported is at most
    /// ``walkThreshold`` under the one a walk every sample would find, and a kill is always
    /// decided on a walk.
    package static func footprintSample(_ pid: ProcessID, limit: Int, lastWalk: inout FootprintWalk?)
        -> ProcessMonitor.Sample?
    {
        guard var sample = try? ProcessMonitor.sample(pid, readingRollup: false) else { return nil }
        let bound = sample.memory.footprintBytes
        if let walk = lastWalk, abs(bound - walk.upperBoundBytes) < walkThreshold, bound <= limit {
            sample.memory.footprintBytes = walk.footprintBytes
            sample.memory.footprintSource = .proportionalAnonymous
            sample.memory.proportionalBytes = walk.proportionalBytes
            sample.memory.privateDirtyBytes = walk.privateDirtyBytes
            return sample
        }
        guard let walked = try? ProcessMonitor.sample(pid) else { return nil }
        lastWalk = FootprintWalk(
            footprintBytes: walked.memory.footprintBytes, upperBoundBytes: bound,
            proportionalBytes: walked.memory.proportionalBytes, privateDirtyBytes: walked.memory.privateDirtyBytes)
        return walked
    }

    /// How far the footprint's upper bound moves before the page tables are walked again.
    package static let walkThreshold = 1 << 20

    /// A name for one extension process's memory cgroup, unique on the machine.
    static func cgroupName() -> String {
        _ = abandonedCgroupsRemoved
        return "\(cgroupPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// What every extension process's memory cgroup is named with, before its host's pid.
    static let cgroupPrefix = "exthost-"

    /// Once per process, before its first cgroup: those of hosts that died without removing theirs.
    private static let abandonedCgroupsRemoved: Void = { MemoryCgroup.removeAbandoned(prefix: cgroupPrefix) }()

    /// The seccomp listener the launcher sends just before exec, or nil when it sends none (no
    /// seccomp user notification here) or the child ends first.
    static func receiveListener(_ socket: Socket, from child: ChildProcess) async -> FileDescriptor? {
        var byte: UInt8 = 0
        // The launcher sends the listener or closes the socket just before exec, or dies, so the
        // deadline only guards against one stuck before that. It is generous: giving up drops the
        // listener in flight, and every open of the program then fails with ENOSYS (a slow start
        // on a loaded machine read as "error while loading shared libraries … Error 38").
        // The wait sleeps in one poll on the socket and the child's pidfd, so it ends on whichever
        // comes first: the launcher's message or the child's end.
        let deadline = ContinuousClock.now + .seconds(120)
        var entries = [(descriptor: socket.descriptor, events: PollEvents.readable)]
        if let ended = child.terminationDescriptor { entries.append((ended, .readable)) }
        var ended = false
        while ContinuousClock.now < deadline {
            let received = withUnsafeMutableBytes(of: &byte) { try? socket.receive(into: $0, nonBlocking: true) }
            if let received {
                if received.byteCount == 0 { return nil }  // the launcher closed it without a listener
                if let listener = received.descriptors.first {
                    for extra in received.descriptors.dropFirst() { try? extra.close() }
                    return listener
                }
            }
            // Ended: what it sent before was read above; nothing more can come.
            if ended || child.hasTerminated { return nil }
            let remaining = deadline - ContinuousClock.now
            let ready = await withBlockingWait { [entries] in try? FileDescriptor.poll(entries, timeout: remaining) }
            guard let ready else { return nil }
            ended = ready.count > 1 && !ready[1].isEmpty
        }
        return nil
    }

    /// Runs the serving loop, the watchdog and the timer until the child has exited and its
    /// connection has drained.
    private static func supervise(
        _ child: ChildProcess, launch: ExtensionLaunch, channel: ExtensionChannel, session: some ExtensionSession,
        tracker: RunTracker, cgroup: MemoryCgroup?
    ) async {
        // The kernel's kill, read from the cgroup's memory.events as it happens: the explanation
        // (the peak, what it was doing) does not depend on the watchdog sampling in time.
        let kernelKill = Task { () -> Bool in
            guard let cgroup, await cgroup.oomKill() != nil else { return false }
            let reason = MemoryReason.kernelKill(
                limits: launch.limits, peak: cgroup.peakBytes, activity: channel.activity)
            if tracker.kill(.killedMemory, reason) { killTree(child, tracker: tracker) }
            return true
        }
        let serving = Task {
            await serve(
                child, channel: channel, session: session, tracker: tracker, handOff: launch.handOff,
                pageSize: launch.contextPageSize)
        }
        let watching = Task {
            await watch(child, limits: launch.limits, channel: channel, tracker: tracker, cgroup: cgroup)
        }
        let timing = Task {
            guard let timeout = launch.limits.timeout else { return }
            try? await Task.sleep(for: timeout)
            if Task.isCancelled || child.hasTerminated { return }
            let seconds = timeout.milliseconds / 1000
            if tracker.kill(.killedTimeout, "ran past its time limit of \(seconds) s") {
                killTree(child, tracker: tracker)
            }
        }
        _ = await child.exitStatus()
        killTree(child, tracker: tracker)
        timing.cancel()
        watching.cancel()
        kernelKill.cancel()
        // Ended before the wait saw the event: the count is in memory.events all the same.
        if await !kernelKill.value, let cgroup, let events = cgroup.events, events.oomKill > 0 {
            let reason = MemoryReason.kernelKill(
                limits: launch.limits, peak: cgroup.peakBytes, activity: channel.activity)
            _ = tracker.kill(.killedMemory, reason)
        }
        // Every frame it sent before exiting is still readable: drain them (end of stream comes
        // once its last copy of the socket is gone), but never wait long for an escaped holder.
        let drained = Task {
            await serving.value
            return true
        }
        let deadline = Task {
            try? await Task.sleep(for: .seconds(2))
            return false
        }
        if await !firstOf(drained, deadline) { channel.connection.close() }
        await serving.value
        deadline.cancel()
        await watching.value
    }

    private static func firstOf(_ a: Task<Bool, Never>, _ b: Task<Bool, Never>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await a.value }
            group.addTask { await b.value }
            let first = await group.next() ?? false
            group.cancelAll()
            b.cancel()
            return first
        }
    }

    private static func killTree(_ child: ChildProcess, tracker: RunTracker) {
        try? child.send(.kill)
        for pid in tracker.knownDescendants { try? pid.send(.kill) }
    }

    // MARK: - Serving

    private static func serve(
        _ child: ChildProcess, channel: ExtensionChannel, session: some ExtensionSession, tracker: RunTracker,
        handOff context: HandOffContext?, pageSize: Int
    ) async {
        // A context of more attachments than one page: what the extension asks page by page.
        var paged: (paging: ContextPaging, context: ContextDescription)?
        let violation: (String) -> Void = { text in
            if tracker.kill(.crashed, "broke the protocol: \(text)") { killTree(child, tracker: tracker) }
        }
        await withDiscardingTaskGroup { group in
            do {
                for try await frame in channel.connection.incomingFrames() {
                    guard let message = frame.message else {
                        violation("sent a data chunk")
                        continue
                    }
                    frame.closeDescriptors()
                    switch message {
                    case .hello(let hello):
                        tracker.mark(hello: ContinuousClock.now)
                        guard hello.protocolVersion == WireFormat.protocolVersion else {
                            violation(
                                "speaks protocol \(hello.protocolVersion), the host \(WireFormat.protocolVersion)")
                            continue
                        }
                        do {
                            let welcome = try await session.welcome(for: hello)
                            if let head = welcome.paged(pageSize: pageSize), let paging = head.paging {
                                paged = (paging, welcome.context)
                                try channel.send(.welcome(head))
                            } else {
                                // A context too large for one frame goes as a welcome and its parts.
                                for message in welcome.split() { try channel.send(message) }
                            }
                        } catch {
                            violation("was refused: \(error)")
                        }
                    case .pageRequest(let request):
                        guard let paged else {
                            violation("asked for page \(request.page) of a context that is not paged")
                            continue
                        }
                        for message in paged.paging.answer(request, from: paged.context) { try? channel.send(message) }
                    case .loadRequest(let request):
                        channel.setActivity(session.describe(request))
                        group.addTask {
                            await session.serve(request, on: channel)
                            channel.finishedLoad()
                        }
                    case .startAccessing(let request):
                        let reply = await session.startAccessing(request, on: channel)
                        try? channel.send(.securityScopeReply(reply))
                    case .stopAccessing(let request):
                        let reply = await session.stopAccessing(request, on: channel)
                        try? channel.send(.securityScopeReply(reply))
                    case .progress(let update):
                        if let activity = update.activity { channel.setActivity(activity) }
                    case .outcomes(let batch):
                        tracker.addOutcomes(batch.outcomes)
                    case .completeRequest(let completion):
                        tracker.finish(completion: completion, cancellation: nil)
                        try? channel.send(.bye(Bye(reason: "request completed")))
                        group.addTask { await exitOrKill(child, tracker: tracker) }
                    case .cancelRequest(let cancellation):
                        tracker.finish(completion: nil, cancellation: cancellation)
                        try? channel.send(.bye(Bye(reason: "request cancelled")))
                        group.addTask { await exitOrKill(child, tracker: tracker) }
                    case .log(let line):
                        tracker.append(line)
                    case .requestSettled(let end):
                        tracker.settled(end)
                    case .principal(let principal):
                        tracker.note(principal: principal)
                    case .uiStep(let step):
                        tracker.note(step: step)
                        if step.result.outcome == .failed {
                            // The script names something that is not on screen: bad input, and the
                            // extension goes no further.
                            if tracker.kill(.crashed, "the scripted user's step \(step.result.step) failed") {
                                killTree(child, tracker: tracker)
                            }
                        }
                    case .uiSummary(let summary):
                        tracker.note(summary: summary)
                    case .openURL(let request):
                        group.addTask {
                            tracker.note(handOff: await handOff(request, context, channel: channel))
                        }
                    case .pasteboard(let request):
                        let reply =
                            context?.pasteboard?.serve(request, writer: context?.bundleIdentifier)
                            ?? PasteboardReply(
                                requestID: request.requestID, contents: nil,
                                error: "this host serves no pasteboard (no device root)")
                        try? channel.send(.pasteboardReply(reply))
                    case .bundleFailure(let failure):
                        tracker.note(bundleFailure: failure)
                        try? channel.send(.bye(Bye(reason: "the bundle cannot run")))
                        group.addTask { await exitOrKill(child, tracker: tracker) }
                    case .cancelLoad, .bye:
                        break
                    case .welcome, .contextPart, .contextPage, .fileReply, .loadCompleted, .loadFailed,
                        .securityScopeReply,
                        .openURLReply, .pasteboardReply:
                        violation("sent \(message.typeName), which only the host sends")
                    }
                }
            } catch {
                violation("\(error)")
            }
        }
    }

    /// Does what iOS does with an extension's request to open a URL: decides by the device's iOS
    /// version and the extension point, answers the extension at once (as iOS answers before the app
    /// is up), then has Launch Services deliver the URL to the app, cold or warm.
    private static func handOff(
        _ request: OpenURLRequest, _ context: HandOffContext?, channel: ExtensionChannel
    ) async -> HandOff {
        let version = context?.version ?? .current
        let (allowed, ios) = HandOffPolicy.decide(
            request.method, extensionPoint: context?.extensionPoint, version: version)
        var record = HandOff(
            requested: request.method.rawValue, url: request.url, iosVersion: "\(version)", ios: ios, opened: false,
            received: false)
        let reply = { (opened: Bool) in
            try? channel.send(.openURLReply(OpenURLReply(requestID: request.requestID, opened: opened)))
        }
        guard allowed else {
            reply(false)
            return record
        }
        guard let url = URL(string: request.url), url.scheme != nil else {
            record.ios = "'\(request.url)' is not a URL with a scheme: nothing opens and the completion gets false"
            reply(false)
            return record
        }
        guard let handOff = context?.handOff else {
            record.ios += "; exthost ran this share without Launch Services, so nothing could open it"
            reply(false)
            return record
        }
        let (app, reason) = handOff.resolve(url)
        guard let app else {
            record.ios = reason
            reply(false)
            return record
        }
        record.app = app
        record.opened = true
        reply(true)
        do {
            let report = try await handOff.deliver(url, app)
            record.start = report.start
            record.delivery = report.delivery
            record.received = report.delivery.method != .lost
            record.appOutput = report.run?.output
        } catch {
            record.delivery = AppDelivery(method: .lost, handled: false, detail: "\(error)", urls: [request.url])
        }
        return record
    }

    /// After the request ended the extension has two seconds to exit.
    private static func exitOrKill(_ child: ChildProcess, tracker: RunTracker) async {
        if await !child.waitForTermination(timeout: .seconds(2)) { killTree(child, tracker: tracker) }
    }

    // MARK: - Watchdog

    private static func watch(
        _ child: ChildProcess, limits: ExtensionLimits, channel: ExtensionChannel, tracker: RunTracker,
        cgroup: MemoryCgroup?
    ) async {
        var lastScan: ContinuousClock.Instant?
        var lastWalk: FootprintWalk?
        while !child.hasTerminated && !Task.isCancelled {
            if let sample = Self.footprintSample(child.pid, limit: limits.memoryBytes, lastWalk: &lastWalk) {
                tracker.record(sample.memory)
                if sample.memory.footprintBytes > limits.memoryBytes {
                    var reason =
                        "went over its memory limit of \(limits.memoryBytes.byteDescription) "
                        + "(footprint \(sample.memory.footprintBytes.byteDescription))"
                    reason += MemoryReason.doing(channel.activity)
                    if tracker.kill(.killedMemory, reason) { killTree(child, tracker: tracker) }
                    return
                }
            }
            if lastScan.map({ ContinuousClock.now - $0 >= limits.processScanInterval }) ?? true {
                lastScan = ContinuousClock.now
                // The cgroup holds the extension and everything it started (orphans too): one read.
                let tree =
                    cgroup?.members.map { $0.filter { $0 != child.pid } } ?? ProcessMonitor.descendants(of: child.pid)
                tracker.noteDescendants(tree)
                if tree.count + 1 > limits.processes {
                    let reason = "started \(tree.count + 1) processes, over its limit of \(limits.processes)"
                    if tracker.kill(.killedProcesses, reason) { killTree(child, tracker: tracker) }
                    return
                }
            }
            try? await Task.sleep(for: limits.samplingInterval)
        }
    }
}

/// The end of a memory kill's reason: what the extension was doing, and the fix when it was
/// reading a whole representation into memory.
enum MemoryReason {
    /// A kill by the cgroup's OOM killer (`memory.max` is the limit itself).
    static func kernelKill(limits: ExtensionLimits, peak: Int?, activity: String?) -> String {
        "went over its memory limit of \(limits.memoryBytes.byteDescription): the kernel's limit (cgroup "
            + "memory limit, read from its memory events as it acted) ended it"
            + (peak.map { " at \($0.byteDescription) charged" } ?? "") + doing(activity)
    }

    static func doing(_ activity: String?) -> String {
        guard let activity else { return "" }
        return " while \(activity)"
            + (activity.hasPrefix("loading data representation") ? "; use loadFileRepresentation" : "")
    }
}

/// What the kernel's memory limit did during one run.
struct KernelMemoryLimit {
    var enforcement: MemoryEnforcement
    var cgroupOOMKills: Int
    var cgroupPeakBytes: Int?
}

/// What the supervising tasks learn about one run.
final class RunTracker: Sendable {
    /// Where the request is: it ends once, by a completion or a cancellation.
    private enum Request {
        case pending
        case completed(CompleteRequest, at: ContinuousClock.Instant)
        case cancelled(CancelRequest, at: ContinuousClock.Instant)

        var completion: CompleteRequest? { if case .completed(let completion, _) = self { completion } else { nil } }
        var cancellation: CancelRequest? { if case .cancelled(let cancel, _) = self { cancel } else { nil } }
        var endedAt: ContinuousClock.Instant? {
            switch self {
            case .pending: nil
            case .completed(_, let at), .cancelled(_, let at): at
            }
        }
    }

    private struct State {
        var hello: ContinuousClock.Instant?
        var request = Request.pending
        /// The first kill (a kill is independent of the request: the watchdog may still kill a
        /// process that completed and then kept allocating).
        var killed: (ExtensionRunOutcome, String)?
        var peakFootprint = 0
        var peakResident = 0
        var peakData = 0
        var messages: [LogLine] = []
        var descendants: [ProcessID] = []
        var batchedOutcomes: [AttachmentOutcome] = []
        var requestEnd: RequestEndReport?
        var principal: PrincipalDescription?
        var bundleFailure: BundleFailure?
        var handOffs: [HandOff] = []
        var steps: [UserInterfaceStep] = []
        var summary: UserInterfaceSummary?
    }
    private let state = Locked(State())
    private let start: ContinuousClock.Instant

    init(start: ContinuousClock.Instant) { self.start = start }

    func mark(hello: ContinuousClock.Instant) { state.withLock { $0.hello = $0.hello ?? hello } }

    func addOutcomes(_ outcomes: [AttachmentOutcome]) { state.withLock { $0.batchedOutcomes += outcomes } }

    func settled(_ end: RequestEndReport) { state.withLock { $0.requestEnd = $0.requestEnd ?? end } }

    func finish(completion: CompleteRequest?, cancellation: CancelRequest?) {
        state.withLock { state in
            guard case .pending = state.request else { return }
            if var completion {
                // The batches move into the completion: the outcomes of a large share are held once.
                var outcomes = state.batchedOutcomes
                state.batchedOutcomes = []
                outcomes += completion.outcomes
                completion.outcomes = outcomes
                state.request = .completed(completion, at: ContinuousClock.now)
            } else if let cancellation {
                state.request = .cancelled(cancellation, at: ContinuousClock.now)
            }
        }
    }

    /// Records the first kill; returns whether this call was it.
    func kill(_ outcome: ExtensionRunOutcome, _ reason: String) -> Bool {
        state.withLock { state in
            if state.killed != nil { return false }
            // A request already completed or cancelled keeps its outcome; a late kill is cleanup.
            if state.request.endedAt != nil, outcome == .crashed { return false }
            state.killed = (outcome, reason)
            return true
        }
    }

    func record(_ memory: ProcessMonitor.MemoryUsage) {
        state.withLock { state in
            state.peakFootprint = max(state.peakFootprint, memory.footprintBytes)
            state.peakResident = max(state.peakResident, memory.peakResidentBytes)
            state.peakData = max(state.peakData, memory.dataBytes)
        }
    }

    func append(_ line: LogLine) { state.withLock { $0.messages.append(line) } }

    func note(principal: PrincipalDescription) { state.withLock { $0.principal = principal } }

    func note(handOff: HandOff) { state.withLock { $0.handOffs.append(handOff) } }

    func note(step: UserInterfaceStep) { state.withLock { $0.steps.append(step) } }

    func note(summary: UserInterfaceSummary) {
        state.withLock { state in
            // The last summary wins, unless a final one came already.
            if state.summary?.isFinal != true || summary.isFinal { state.summary = summary }
        }
    }

    func note(bundleFailure: BundleFailure) { state.withLock { $0.bundleFailure = $0.bundleFailure ?? bundleFailure } }

    func noteDescendants(_ pids: [ProcessID]) {
        state.withLock { state in
            for pid in pids where !state.descendants.contains(pid) { state.descendants.append(pid) }
        }
    }

    var knownDescendants: [ProcessID] { state.withLock { $0.descendants } }

    func report(
        pid: ProcessID, status: TerminationStatus, sandbox: SandboxReport?, limits: ExtensionLimits,
        kernel: KernelMemoryLimit, channel: ExtensionChannel, log: String, dropped: Int
    ) -> ExtensionReport {
        let now = ContinuousClock.now
        return state.withLock { state in
            let outcome: ExtensionRunOutcome
            let reason: String
            if let (killedOutcome, killedReason) = state.killed {
                outcome = killedOutcome
                reason = killedReason
            } else if state.request.completion != nil {
                outcome = .completed
                reason = "completed the request"
            } else if let cancellation = state.request.cancellation {
                outcome = .cancelled
                reason = "cancelled the request: \(cancellation.error.message)"
            } else if let failure = state.bundleFailure {
                outcome = .crashed
                reason = "could not run its bundle: \(failure)"
            } else if kernel.cgroupOOMKills > 0 {
                // The kernel, not the watchdog, stopped it (a starved watchdog sampled too late).
                outcome = .killedMemory
                reason =
                    "went over its memory limit of \(limits.memoryBytes.byteDescription): the kernel's limit "
                    + "(cgroup memory.max) ended it"
                    + (kernel.cgroupPeakBytes.map { " at \($0.byteDescription) charged" } ?? "")
                    + MemoryReason.doing(channel.activity)
            } else if kernel.enforcement == .rlimitData, case .signaled(let signal, _) = status,
                state.peakData > limits.memoryBytes || signal == .abort
                    || log.contains("Could not allocate memory")
            {
                // Killed by a signal with more mapped than its limit, or aborted (a failed malloc
                // aborts; Swift's runtime says "Could not allocate memory" and traps) under a data
                // limit: the limit is the likeliest cause. A burst from several threads reaches the
                // limit between two samples of a watchdog starved of CPU, so the peak may not show it.
                outcome = .killedMemory
                reason =
                    "went over its memory limit of \(limits.memoryBytes.byteDescription): an allocation failed at its "
                    + "data limit (RLIMIT_DATA, \(limits.dataCeilingBytes.byteDescription)) and it ended (\(status))"
                    + MemoryReason.doing(channel.activity)
            } else {
                outcome = .crashed
                if let sandbox, sandbox.status == .refused {
                    reason = "the sandbox launcher refused to run it (\(sandbox.reason ?? "unknown reason"))"
                } else if let error = sandbox?.execError {
                    reason = "could not be executed: \(error)"
                } else if let error = sandbox?.loadError {
                    reason = "could not be loaded as a library: \(error)"
                } else {
                    reason = "ended (\(status)) without completing or cancelling the request"
                }
            }
            var report = ExtensionReport(
                pid: pid.rawValue, outcome: outcome, reason: reason, status: status, sandbox: sandbox,
                // Killed by the kernel between two samples: what the cgroup was charged is the peak.
                peakMemoryBytes: kernel.cgroupOOMKills > 0
                    ? max(state.peakFootprint, kernel.cgroupPeakBytes ?? 0) : state.peakFootprint,
                peakResidentBytes: state.peakResident, limits: limits, memoryEnforcement: kernel.enforcement,
                activity: channel.activity, completion: state.request.completion,
                cancellation: state.request.cancellation, requestEnd: state.requestEnd,
                log: log, logDroppedBytes: dropped, messages: state.messages, refusals: channel.refusals,
                bytesServed: channel.bytesServed, served: channel.served,
                timings: ExtensionReport.Timings(
                    hello: state.hello.map { $0 - start }, finished: state.request.endedAt.map { $0 - start },
                    total: now - start))
            report.principal = state.principal
            report.handOffs = state.handOffs
            if let summary = state.summary {
                report.userInterface = UserInterfaceReport(summary: summary, steps: state.steps)
            } else if !state.steps.isEmpty {
                report.userInterface = UserInterfaceReport(
                    summary: UserInterfaceSummary(
                        lifeCycle: [], initialScreen: nil, finalScreen: state.steps.last?.result.screen,
                        diagnostics: [],
                        scriptSteps: state.steps.count, defaultScript: false, isFinal: false),
                    steps: state.steps)
            }
            report.bundleFailure = state.bundleFailure
            return report
        }
    }
}
