import ExtHostTestSupport
import Foundation
import ShareSheet
import SheetReports
import Testing

@testable import ExtHostCommands

/// `exthost sheet --html` rendered by a real browser (Debian's `chromium`, headless, installed by
/// Scripts/bootstrap): a screenshot is taken, and the layout the browser computed for that page says
/// the preview header and every shown row are drawn, visible and in the right section.
@Suite(.timeLimit(.minutes(3)))
struct SheetPageTests {
    static func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        Issue.record("no chromium: run Scripts/bootstrap (it installs Debian's chromium)")
        throw CancellationError()
    }

    /// Runs the browser headless; its standard output.
    static func browse(_ arguments: [String], scratch: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try chromium())
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(scratch.appendingPathComponent("profile").path)", "--window-size=500,900",
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "chromium \(arguments.last ?? "") exited \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }

    /// What the measuring script writes: the preview's box, its title, and the box of each row.
    struct Layout: Decodable {
        /// One element as the browser laid it out.
        struct Box: Decodable {
            var text: String
            var width: Double
            var height: Double
            var visible: Bool
        }
        var preview: Box
        var title: String
        var row: [Box]
        var actions: [Box]
    }

    /// The page with a script that writes, for the preview and each row, the box the browser laid out.
    static let measuring = """
        <pre id="layout"></pre><script>
        const box = (el) => { const b = el.getBoundingClientRect();
          return { id: el.dataset.id || el.id, text: el.innerText.trim(), width: b.width, height: b.height,
                   visible: b.width > 0 && b.height > 0 && b.top >= 0 && b.bottom <= innerHeight && b.right <= innerWidth }; };
        document.getElementById('layout').textContent = JSON.stringify({
          preview: box(document.getElementById('preview')),
          title: document.querySelector('#preview h1').innerText,
          row: [...document.querySelectorAll('#app-row .app')].map(box),
          actions: [...document.querySelectorAll('#actions li')].map(box) });
        </script></body>
        """

    @Test func theSheetPageRendersThePreviewAndTheRows() async throws {
        let root = try TestSupport.scratchRoot("sheet-page")
        defer { try? FileManager.default.removeItem(at: root) }
        let page = root.appendingPathComponent("sheet.html")
        let pdf = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems/menu.pdf")
        let (code, out, err) = await TestSupport.run(
            ["sheet", pdf.path, "--html", page.path, "--json"], root: root)
        #expect(code == .success, "\(err)")
        let report = try JSONDecoder().decode(SheetReport.self, from: Data(out.utf8))
        let shown = report.activities.filter(\.shown)
        let rowTitles = shown.filter { $0.section == "app-row" }.map(\.title)
        let actionTitles = shown.filter { $0.section == "actions" }.map(\.title)

        // A screenshot, as a person would see the page.
        let screenshot = root.appendingPathComponent("sheet.png")
        _ = try await TestSupport.offThread {
            try Self.browse(["--screenshot=\(screenshot.path)", page.absoluteString], scratch: root)
        }
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        let width = png.count > 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(width == 500)

        // What the browser laid out for the same page.
        let html = try String(contentsOf: page, encoding: .utf8)
        let measured = root.appendingPathComponent("measured.html")
        try Data(html.replacingOccurrences(of: "</body>", with: Self.measuring).utf8).write(to: measured)
        let dom = try await TestSupport.offThread {
            try Self.browse(["--dump-dom", measured.absoluteString], scratch: root)
        }
        let start = try #require(dom.range(of: "<pre id=\"layout\">"))
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let layout = try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
        #expect(layout.preview.visible)
        #expect(layout.title == "menu.pdf")
        let row = layout.row
        let actions = layout.actions
        #expect(row.count == rowTitles.count && !row.isEmpty)
        #expect(actions.count == actionTitles.count && !actions.isEmpty)
        for (box, title) in zip(row, rowTitles) {
            #expect(box.text.hasSuffix(title), "\(box)")
            #expect(box.height >= 60, "an icon and its title: \(box)")
        }
        for (box, title) in zip(actions, actionTitles) {
            #expect(box.text == title)
            #expect(box.visible, "\(box)")
        }
    }
}
