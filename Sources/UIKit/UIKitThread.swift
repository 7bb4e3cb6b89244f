import Dispatch
import Foundation
import HeadlessScreens
import Runtime
import Synchronization

/// UIKit's own bookkeeping of the main thread, as the Main Thread Checker does on a device: every
/// setter of UIKit state calls ``check(_:_:)``, which records the call site when it runs off the
/// main thread; and every change wakes whoever waits for the screen to change (the scripted user's
/// `wait`).
///
/// "The main thread" is the process's main thread or the main dispatch queue: the main actor runs
/// on the main queue, which is drained by a worker thread when the process has no run loop on its
/// main thread (`swift test`, an async `main`).
package enum UIKitThread {
    /// One place where UIKit state was changed off the main thread.
    package struct Violation: Sendable {
        /// The API (`UILabel.text`).
        package var api: String
        /// The first frame outside UIKit (`ShareViewController.save() at ShareViewController.swift:42`).
        package var callSite: String
        /// How many times.
        package var count: Int
        /// The object whose state was changed.
        package let object: WeakObject
        /// When it first happened, in change order.
        package var sequence: UInt64
        /// How many extension screens were live when it first happened (an object gone since can
        /// be attributed to a screen only when that screen was the only one).
        package var screensLive: Int
    }

    /// A weak reference that can cross threads (read only on the main actor).
    package final class WeakObject: @unchecked Sendable {
        // Written once at creation; read on the main actor after the violation was recorded (the
        // Mutex that guards `state` orders the write before any read).
        package nonisolated(unsafe) weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    private struct State {
        var generation: UInt64 = 0
        var screensLive = 0
        var violations: [Violation] = []
        var byFrames: [[Backtrace.Address]: Int] = [:]
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private static let state = Mutex(State())

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main thread or the main queue.
    package static var isMain: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// Records a change of UIKit state through `api` on `object`: off the main thread, the call site;
    /// always, that the screen changed.
    package static func check(_ api: StaticString, _ object: AnyObject) {
        if !isMain { recordViolation(api: "\(api)", object: object) }
        noteChange()
    }

    /// Wakes whoever waits for the screen to change.
    package static func noteChange() {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// A number that grows with every change.
    package static var generation: UInt64 { state.withLock { $0.generation } }

    /// Waits until something changes after `generation`, or `seconds` pass.
    /// - Returns: whether something changed.
    package static func waitForChange(after generation: UInt64, seconds: Double) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id: UInt64? = state.withLock { state in
                if state.generation != generation { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                let waiting = state.withLock { $0.waiters.removeValue(forKey: id) }
                waiting?.resume(returning: false)
            }
        }
    }

    /// Counts the extension screens alive (``ExtensionScreen`` made and not yet gone), from any thread.
    package static func screenCount(adding change: Int) {
        state.withLock { $0.screensLive += change }
    }

    /// The places UIKit state was changed off the main thread, in the order first seen.
    package static var violations: [Violation] { state.withLock { $0.violations } }

    private static func recordViolation(api: String, object: AnyObject) {
        // Capturing is cheap; symbolicating (reading DWARF) is not, so it happens once per call path.
        guard let backtrace = try? Backtrace.capture(limit: 24) else { return }
        let frames = Array(backtrace.frames.prefix(12).map(\.adjustedProgramCounter))
        let known: Bool = state.withLock { state in
            guard let index = state.byFrames[frames] else { return false }
            state.violations[index].count += 1
            return true
        }
        if known { return }
        let site = callSite(backtrace)
        state.withLock { state in
            if let index = state.byFrames[frames] {
                state.violations[index].count += 1
                return
            }
            state.byFrames[frames] = state.violations.count
            state.violations.append(
                Violation(
                    api: api, callSite: site, count: 1, object: WeakObject(object), sequence: state.generation,
                    screensLive: state.screensLive))
        }
    }

    /// The first frame that is the program's own code, not UIKit's, the Swift runtime's or Dispatch's.
    private static func callSite(_ backtrace: Backtrace) -> String {
        guard let symbolicated = backtrace.symbolicated() else { return "an unknown caller" }
        let ours = ["$s5UIKit", "$s6Social", "$s15HeadlessScreens", "$s7Runtime"]
        for frame in symbolicated.frames {
            guard let symbol = frame.symbol, !frame.isSwiftThunk, !frame.isSwiftRuntimeFailure else { continue }
            if ours.contains(where: symbol.rawName.hasPrefix) { continue }
            if symbol.isSystemFunction || symbol.rawName.hasPrefix("$ss") || symbol.rawName.hasPrefix("$s10Foundation")
            {
                continue
            }
            if let location = symbol.sourceLocation {
                let file = location.path.split(separator: "/").last.map(String.init) ?? location.path
                return "\(symbol.name) at \(file):\(location.line)"
            }
            return "\(symbol.name) in \(symbol.imageName)"
        }
        return "an unknown caller"
    }
}

/// A counter that orders life-cycle calls across view controllers.
@MainActor
enum LifeCycleClock {
    static var next: UInt64 = 0
    static func tick() -> UInt64 {
        next += 1
        return next
    }
}
