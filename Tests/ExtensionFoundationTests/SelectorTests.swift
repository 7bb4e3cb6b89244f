import Foundation
import Testing
import UniformTypeIdentifiers

/// The Objective-C runtime equivalents, in the call shapes share extensions use to open their app.
struct SelectorTests {
    /// A class as `exthost import` adapts one whose methods were `@objc`.
    final class Opener: NSObject, SelectorDispatching, @unchecked Sendable {
        private let lock = NSLock()
        private var _opened: [URL] = []
        private var _threads: [Bool] = []
        var opened: [URL] { lock.withLock { _opened } }
        var ranOnMainThread: [Bool] { lock.withLock { _threads } }

        func openURL(_ url: URL) -> Bool {
            lock.withLock {
                _opened.append(url)
                _threads.append(Thread.isMainThread)
            }
            return true
        }

        func ping() {}

        func canDispatch(_ selector: Selector) -> Bool { selector == "openURL:" || selector == "ping" }

        func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {
            switch selector {
            case "openURL:":
                guard let url = arguments[0] as? URL else { return .returned(nil) }
                return .returned(openURL(url))
            case "ping": return .returned(ping())
            default: return nil
            }
        }
    }

    @Test func selectorsAreTheirObjectiveCNames() {
        let registered = sel_registerName("openURL:")
        #expect(registered == Selector("openURL:"))
        #expect(NSSelectorFromString("open:options:completionHandler:").argumentCount == 3)
        #expect(NSStringFromSelector(registered) == "openURL:")
        let literal: Selector = "ping"
        #expect(literal.argumentCount == 0 && "\(literal)" == "ping")
    }

    @Test func respondsAndPerformGoThroughTheObjectsDispatch() throws {
        let opener = Opener()
        let selector = sel_registerName("openURL:")
        let url = try #require(URL(string: "myapp://share?id=1"))
        #expect(opener.responds(to: selector))
        #expect(!opener.responds(to: Selector("openURL:options:")))
        #expect(!opener.responds(to: nil))
        let result = opener.perform(selector, with: url)
        #expect(result?.takeUnretainedValue() as? Bool == true)
        #expect(opener.opened == [url])
        // A Void method returns nil; a missing argument is nil, so the method is not reached.
        #expect(opener.perform("ping") == nil)
        #expect(opener.perform(selector) == nil)
        #expect(opener.opened == [url])
    }

    @Test func anObjectWithoutDispatchAnswersNothing() {
        let plain = NSObject()
        #expect(!plain.responds(to: sel_registerName("openURL:")))
        #expect(plain.perform(sel_registerName("openURL:"), with: "x") == nil)
        #expect(plain.perform(sel_registerName("a:b:"), with: 1, with: 2) == nil)
    }

    @Test func detachNewThreadSelectorRunsTheMethodOnAnotherThread() async throws {
        let opener = Opener()
        let url = try #require(URL(string: "https://example.com"))
        Thread.detachNewThreadSelector(sel_registerName("openURL:"), toTarget: opener, with: url)
        for _ in 0..<500 where opener.opened.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(opener.opened == [url])
        #expect(opener.ranOnMainThread == [false])
    }
}
