/// The screens of a run as one self-contained HTML page (no scripts, no outside files): each screen
/// in a phone-sized frame, layers stacked as on the device (a presented alert over a dimmed sheet).
///
/// Nothing is drawn from pixels: views are laid out as boxes in the order of the view tree (stack
/// views as rows or columns), since constraints are recorded and not solved. Each element carries
/// `data-role`, `data-type` and, where it has one, `data-id`, so a browser test can find it.
public enum ScreenPage {
    /// One screen on the page, with its caption.
    public struct Entry: Sendable {
        /// The caption (`2 · line 3: tap Post — tapped UIButton "Post"`).
        public var caption: String
        /// The screen.
        public var screen: ScreenSnapshot
        /// A note under the caption (a diagnostic of this step).
        public var note: String?

        /// An entry.
        public init(caption: String, screen: ScreenSnapshot, note: String? = nil) {
            self.caption = caption
            self.screen = screen
            self.note = note
        }
    }

    /// The entries of a run: the screen when the sheet appeared, then one per step.
    public static func entries(of run: ScriptRun) -> [Entry] {
        var entries = [Entry(caption: "1 · the sheet appeared", screen: run.initialScreen)]
        for (offset, result) in run.steps.enumerated() {
            let outcome = result.outcome == .performed ? "" : " (\(result.outcome.rawValue))"
            entries.append(
                Entry(
                    caption: "\(offset + 2) · \(result.step)\(outcome)", screen: result.screen, note: result.note))
        }
        return entries
    }

    /// The page.
    /// - Parameters:
    ///   - title: the page's title (the extension's name).
    ///   - entries: the screens, in order.
    ///   - lifeCycle: the life-cycle calls, listed under the screens.
    ///   - diagnostics: what went wrong, listed above the screens.
    public static func render(
        title: String, entries: [Entry], lifeCycle: [LifeCycleEvent] = [], diagnostics: [UIDiagnostic] = []
    ) -> String {
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width">
            <title>\(escape(title))</title>
            <style>\(style)</style>
            </head><body>
            <h1>\(escape(title))</h1>

            """
        if !diagnostics.isEmpty {
            html += "<ul id=\"diagnostics\">"
            for diagnostic in diagnostics {
                html += "<li data-kind=\"\(diagnostic.kind.rawValue)\">\(escape(diagnostic.description))</li>"
            }
            html += "</ul>\n"
        }
        for (index, entry) in entries.enumerated() {
            html += "<section class=\"screen\" id=\"screen-\(index)\">\n"
            html += "<h2>\(escape(entry.caption))</h2>\n"
            if let note = entry.note { html += "<p class=\"note\">\(escape(note))</p>\n" }
            html += device(entry.screen)
            html += "</section>\n"
        }
        if !lifeCycle.isEmpty {
            html += "<h2>Life cycle</h2><ol id=\"life-cycle\">"
            for event in lifeCycle { html += "<li>\(escape(event.description))</li>" }
            html += "</ol>\n"
        }
        html += "</body></html>\n"
        return html
    }

    static func device(_ screen: ScreenSnapshot) -> String {
        let width = ViewNode.Frame.number(screen.width)
        let height = ViewNode.Frame.number(screen.height)
        var html = "<div class=\"device\" style=\"width:\(width)px;height:\(height)px\">"
        if screen.layers.isEmpty {
            let text = screen.closed == true ? "The extension's sheet has closed." : "Nothing on screen."
            html += "<div class=\"empty\">\(escape(text))</div>"
        }
        for (index, layer) in screen.layers.enumerated() {
            let dimmed = index > 0 ? " over" : ""
            let attributes =
                "data-layer=\"\(layer.kind.rawValue)\" data-controller=\"\(escape(layer.controller))\""
            switch layer.kind {
            case .alert, .actionSheet:
                html += "<div class=\"layer scrim\(dimmed) \(layer.kind.rawValue)\" \(attributes)>"
                html += node(layer.root)
                html += "</div>"
            case .sheet, .presented:
                let full = layer.presentationStyle == "fullScreen" || layer.presentationStyle == "overFullScreen"
                html += "<div class=\"layer\(dimmed)\(full ? " full" : " card")\" \(attributes)>"
                html += node(layer.root)
                html += "</div>"
            }
        }
        return html + "</div>\n"
    }

    static func node(_ node: ViewNode) -> String {
        var classes = ["n", node.role.rawValue]
        if node.tappable == true { classes.append("tappable") }
        if node.enabled == false { classes.append("disabled") }
        if node.selected == true { classes.append("selected") }
        if node.firstResponder == true { classes.append("keyboard") }
        if let style = node.style { classes.append("s-" + style.filter { $0.isLetter || $0.isNumber }) }
        var styles: [String] = []
        if node.hidden == true { styles.append("display:none") }
        if let alpha = node.alpha { styles.append("opacity:\(alpha)") }
        if let background = node.background { styles.append("background:\(background)") }
        if let color = node.textColor { styles.append("color:\(color)") }
        if let size = node.font.flatMap(fontSize) { styles.append("font-size:\(ViewNode.Frame.number(size))px") }
        if node.font?.contains("bold") == true || node.font?.contains("semibold") == true {
            styles.append("font-weight:600")
        }
        if node.role == .view || node.role == .scrollView || node.role == .control, !node.frame.isZero,
            node.frame.height > 0
        {
            styles.append("min-height:\(ViewNode.Frame.number(min(node.frame.height, 2000)))px")
        }
        var attributes = "class=\"\(classes.joined(separator: " "))\" data-role=\"\(node.role.rawValue)\""
        attributes += " data-type=\"\(escape(node.type))\""
        if let identifier = node.identifier { attributes += " data-id=\"\(escape(identifier))\"" }
        if let text = node.text { attributes += " data-text=\"\(escape(text))\"" }
        if !styles.isEmpty { attributes += " style=\"\(styles.joined(separator: ";"))\"" }
        let children = node.children.map(Self.node).joined()
        switch node.role {
        case .label:
            return "<div \(attributes)>\(escape(node.text ?? ""))\(children)</div>"
        case .button, .barButton, .backButton, .alertAction:
            let label = node.text ?? node.accessibilityLabel ?? (node.image != nil ? "▣" : "•")
            let prefix = node.role == .backButton ? "‹ " : ""
            let image = node.image.map(imageTag) ?? ""
            return "<div \(attributes)>\(image)<span>\(escape(prefix + label))</span></div>"
        case .textField:
            let shown =
                (node.text?.isEmpty ?? true)
                ? "<span class=\"ph\">\(escape(node.placeholder ?? ""))</span>"
                : escape(node.secure == true ? String(repeating: "•", count: node.text?.count ?? 0) : node.text ?? "")
            return
                "<div \(attributes)>\(shown)\(node.firstResponder == true ? "<span class=\"caret\"></span>" : "")</div>"
        case .textView:
            let shown =
                (node.text?.isEmpty ?? true)
                ? "<span class=\"ph\">\(escape(node.placeholder ?? ""))</span>" : escape(node.text ?? "")
            return
                "<div \(attributes)>\(shown)\(node.firstResponder == true ? "<span class=\"caret\"></span>" : "")\(children)</div>"
        case .image:
            return "<div \(attributes)>\(node.image.map(imageTag) ?? "<span class=\"noimage\">no image</span>")</div>"
        case .progress:
            let value = node.progress ?? 0
            return "<div \(attributes)><progress max=\"1\" value=\"\(value)\"></progress></div>"
        case .activityIndicator:
            return "<div \(attributes)><span class=\"spinner\"></span></div>"
        case .cell:
            var inner = "<div class=\"celltext\">\(escape(node.text ?? ""))"
            if let detail = node.detail { inner += "<small>\(escape(detail))</small>" }
            inner += "</div>"
            return "<div \(attributes)>\(inner)\(children)</div>"
        case .control:
            var inner = ""
            if let text = node.text { inner += "<span class=\"title\">\(escape(text))</span>" }
            if let detail = node.detail { inner += "<span class=\"value\">\(escape(detail))</span>" }
            return "<div \(attributes)>\(inner)\(children)</div>"
        case .alert:
            var inner = ""
            if let text = node.text { inner += "<div class=\"alert-title\">\(escape(text))</div>" }
            if let detail = node.detail { inner += "<div class=\"alert-message\">\(escape(detail))</div>" }
            return "<div \(attributes)>\(inner)\(children)</div>"
        case .navigationBar:
            let title = node.text.map { "<div class=\"bar-title\">\(escape($0))</div>" } ?? ""
            return "<div \(attributes)>\(title)\(children)</div>"
        case .view, .window, .stack, .scrollView, .table:
            return "<div \(attributes)>\(children)</div>"
        }
    }

    static func imageTag(_ image: ViewNode.Image) -> String {
        let width = ViewNode.Frame.number(min(image.width, 360))
        let size = "\(ViewNode.Frame.number(image.width))×\(ViewNode.Frame.number(image.height))"
        guard let png = image.thumbnailPNG else {
            return "<span class=\"noimage\" style=\"width:\(width)px\">\(size)</span>"
        }
        return "<img alt=\"\(size)\" style=\"width:\(width)px\" src=\"data:image/png;base64,\(Base64.encode(png))\">"
    }

    static func fontSize(_ font: String) -> Double? {
        font.split(separator: " ").compactMap { Double($0) }.first
    }

    /// `text` with `&`, `<`, `>` and `"` escaped.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static let style = """
        body{font:15px -apple-system,system-ui,sans-serif;margin:16px;background:#f2f2f7;color:#000}
        h1{font-size:20px;margin:0 0 12px}h2{font-size:15px;margin:18px 0 6px}
        .note{margin:0 0 6px;color:#555}#diagnostics li{color:#b00020}
        .device{position:relative;overflow:hidden;border:1px solid #999;border-radius:28px;background:#8e8e93}
        .empty{padding:40px;text-align:center;color:#fff}
        .layer{position:absolute;left:0;right:0;overflow:hidden}
        .layer.card{top:12px;bottom:0;border-radius:12px 12px 0 0;background:#fff}
        .layer.full{top:0;bottom:0;background:#fff}
        .layer.over{box-shadow:0 -4px 16px rgba(0,0,0,.25)}
        .layer.scrim{top:0;bottom:0;background:rgba(0,0,0,.35);display:flex;align-items:center;justify-content:center}
        .layer.scrim.actionSheet{align-items:flex-end}
        .n{box-sizing:border-box}
        .view,.window,.scrollView,.table,.control,.cell{display:flex;flex-direction:column}
        .view{padding:2px}
        .stack{display:flex;flex-direction:column;gap:6px}.stack.s-horizontal{flex-direction:row;align-items:center}
        .label{padding:4px 8px;white-space:pre-wrap}
        .button,.barButton,.backButton{color:#007aff;padding:8px;cursor:pointer;display:inline-flex;align-items:center;gap:4px}
        .button.disabled,.barButton.disabled,.alertAction.disabled{color:#c7c7cc}
        .textField{border:1px solid #c7c7cc;border-radius:6px;padding:6px 8px;margin:4px 8px;min-height:34px;background:#fff}
        .textView{padding:8px;min-height:120px;white-space:pre-wrap;background:#fff}
        .ph{color:#c7c7cc}.caret{display:inline-block;width:2px;height:1em;background:#007aff;vertical-align:text-bottom}
        .image img{display:block;max-width:100%}.noimage{display:inline-block;background:#e5e5ea;padding:16px;color:#555}
        .progress progress{width:100%}.activityIndicator{padding:8px;text-align:center}
        .spinner{display:inline-block;width:20px;height:20px;border:3px solid #c7c7cc;border-top-color:#555;border-radius:50%}
        .table{background:#fff}.cell{padding:10px 16px;border-bottom:1px solid #e5e5ea}
        .cell.selected{background:#d1d1d6}.cell small{display:block;color:#8e8e93}
        .navigationBar{order:-1;display:flex;flex-direction:row;align-items:center;min-height:44px;border-bottom:1px solid #d1d1d6;background:#f9f9f9;position:relative}
        .bar-title{position:absolute;left:0;right:0;text-align:center;font-weight:600;pointer-events:none}
        .navigationBar .barButton.s-done,.navigationBar .barButton.s-right,.navigationBar .barButton.s-rightdone{margin-left:auto}
        .alert{background:#fff;border-radius:14px;width:270px;overflow:hidden;text-align:center}
        .actionSheet .alert{width:100%;border-radius:14px 14px 0 0}
        .alert-title{font-weight:600;padding:16px 16px 2px}.alert-message{padding:2px 16px 14px;font-size:13px}
        .alertAction{color:#007aff;padding:11px;border-top:1px solid #d1d1d6}
        .alertAction.s-cancel{font-weight:600}.alertAction.s-destructive{color:#ff3b30}
        .control{flex-direction:row;justify-content:space-between;padding:10px 16px;border-top:1px solid #e5e5ea}
        .control .value{color:#8e8e93}
        .tappable{outline:1px dashed rgba(0,122,255,.35);outline-offset:-1px}
        """
}
