import Dispatch
import ExtensionIPC
import HostSystem
import ItemProviders

/// The pages of a paged context (``ExtensionIPC/Welcome/paging``) behind its lightweight proxy
/// providers: a provider asks for its page the first time it is used; the page is asked of the
/// host (and the next one ahead of time, so a walk in order rarely waits) and kept among the
/// ``pagesKept`` most recently used. When a page is dropped, the providers it filled are made
/// lightweight again (unless their user changed them) — filled again, identically, if used again —
/// so the extension holds a bounded number of descriptions and registrations, whatever the count
/// of attachments.
///
/// Not Sendable: it lives with the providers it fills, in their isolation (the main actor of
/// the extension); only the host's answers cross, through ``Slot``.
final class ContextPager {
    /// How many pages are kept by default.
    static let pagesKept = 4

    /// A page asked of the host: its answer arrives on the connection's reader thread.
    final class Slot: Sendable {
        private let answered = DispatchSemaphore(value: 0)
        private let result = Locked<Result<[AttachmentDescription], IPCError>?>(nil)

        func set(_ answer: Result<[AttachmentDescription], IPCError>) {
            result.withLock { $0 = answer }
            answered.signal()
        }

        /// Waits for the answer (once: the slot is taken by the one page it is for).
        func wait() -> Result<[AttachmentDescription], IPCError> {
            answered.wait()
            return result.withLock { $0 } ?? .failure(IPCError(.connectionClosed, "no answer to a page request"))
        }
    }

    private struct Page {
        var number: Int
        var attachments: [AttachmentDescription]
        /// The providers this page filled, to be made lightweight again when it is dropped.
        var filled: [ItemProvider] = []
    }

    let paging: ContextPaging
    private let host: HostConnection
    private let kernelScopes: Bool
    private let pagesKept: Int
    /// Kept pages, the most recently used last.
    private var pages: [Page] = []
    /// Pages asked for and not yet used.
    private var asked: [Int: Slot] = [:]
    /// Why a page could not be had, by page (its providers stay without representations).
    private(set) var failures: [Int: IPCError] = [:]
    /// How many pages were asked of the host (a page dropped and used again counts again).
    private(set) var pagesAsked = 0

    init(paging: ContextPaging, host: HostConnection, kernelScopes: Bool, pagesKept: Int) {
        self.paging = paging
        self.host = host
        self.kernelScopes = kernelScopes
        self.pagesKept = max(1, pagesKept)
    }

    /// Fills `provider` (a lightweight provider of attachment ``ItemProvider/attachmentIndex``)
    /// from its page.
    func fill(_ provider: ItemProvider) {
        guard let index = provider.attachmentIndex, index >= 0, paging.pageSize >= 1 else { return }
        let number = index / paging.pageSize
        guard let range = paging.range(ofPage: number), range.contains(index) else { return }
        guard let position = page(number) else {
            provider.label = "attachment \(index)"
            return
        }
        let attachment = pages[position].attachments[index - range.lowerBound]
        ProxyProviders.register(attachment, on: provider, host, kernelScopes: kernelScopes)
        provider.label = "attachment \(index)"
        pages[position].filled.append(provider)
    }

    /// The position in ``pages`` of page `number`, asked of the host when it is not kept (nil
    /// when the host could not give it).
    private func page(_ number: Int) -> Int? {
        if let kept = pages.firstIndex(where: { $0.number == number }) {
            if kept != pages.count - 1 { pages.append(pages.remove(at: kept)) }
            return pages.count - 1
        }
        let slot = asked.removeValue(forKey: number) ?? ask(number)
        let answer = slot.wait()
        ask(ahead: number + 1)
        switch answer {
        case .failure(let error):
            failures[number] = error
            return nil
        case .success(let attachments):
            failures[number] = nil
            pages.append(Page(number: number, attachments: attachments))
            while pages.count > pagesKept { drop(pages.removeFirst()) }
            return pages.count - 1
        }
    }

    /// Asks for page `number` ahead of its use, unless it is kept, asked for, or does not exist.
    private func ask(ahead number: Int) {
        guard paging.range(ofPage: number) != nil, asked[number] == nil,
            !pages.contains(where: { $0.number == number })
        else { return }
        asked[number] = ask(number)
    }

    private func ask(_ number: Int) -> Slot {
        let slot = Slot()
        pagesAsked += 1
        host.requestPage(number) { slot.set($0) }
        return slot
    }

    /// Makes the providers `page` filled lightweight again.
    private func drop(_ page: Page) {
        let fill: (ItemProvider) -> Void = { self.fill($0) }
        for provider in page.filled { provider.empty(refilledBy: fill) }
    }
}
