import Foundation
import HeadlessScreens
public import SheetReports

extension SheetReport {
    /// The sheet as a page a person recognises: the preview header, the app row (share
    /// activities as round icons with their titles), the action list, and — folded below — what
    /// is hidden and why. Self-contained (no scripts, no remote resources).
    public var html: String {
        let shown = activities.filter(\.shown)
        let row = shown.filter { $0.section == "app-row" }
        let actions = shown.filter { $0.section == "actions" }
        let hidden = activities.filter { !$0.shown }
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Share sheet: \(escape(preview.title))</title>
            <style>
            body { margin: 0; background: #8e8e93; font: 15px -apple-system, "Helvetica Neue", Arial, sans-serif; }
            .sheet { width: 390px; margin: 24px auto; background: #f2f2f7; border-radius: 14px; padding: 12px 0 16px; }
            .preview { display: flex; align-items: center; gap: 12px; padding: 8px 16px 14px; border-bottom: 1px solid #d1d1d6; }
            .thumb { width: 48px; height: 48px; border-radius: 10px; background: #c7c7cc; display: flex;
                     align-items: center; justify-content: center; font-size: 11px; color: #3a3a3c; }
            .preview h1 { font-size: 16px; margin: 0; font-weight: 600; }
            .preview p { margin: 2px 0 0; color: #6d6d72; font-size: 13px; }
            .row { display: flex; gap: 14px; overflow: hidden; padding: 14px 16px; }
            .app { width: 64px; text-align: center; font-size: 11px; }
            .icon { width: 60px; height: 60px; border-radius: 14px; background: #007aff; color: white;
                    display: flex; align-items: center; justify-content: center; font-size: 24px; margin: 0 auto 4px; }
            .actions { margin: 4px 16px; background: white; border-radius: 10px; list-style: none; padding: 0; }
            .actions li { padding: 12px 14px; border-bottom: 1px solid #e5e5ea; }
            .actions li:last-child { border-bottom: none; }
            details { margin: 12px 16px 0; color: #3a3a3c; font-size: 12px; }
            details li { margin: 4px 0; }
            </style></head><body>
            <div class="sheet" id="sheet">
            <header class="preview" id="preview" data-decided-by="\(escape(preview.decidedBy))">
            <div class="thumb" data-image="\(escape(preview.image))">\(escape(preview.image))</div>
            <div><h1>\(escape(preview.title))</h1>
            """
        if let subtitle = preview.subtitle { page += "<p>\(escape(subtitle))</p>" }
        page += "</div></header>\n<section class=\"row\" id=\"app-row\">\n"
        for activity in row {
            let initial = activity.title.first.map { String($0) } ?? "?"
            page += """
                <div class="app" data-id="\(escape(activity.id))" data-kind="\(escape(activity.kind))">\
                <div class="icon">\(escape(initial))</div>\(escape(activity.title))</div>

                """
        }
        page += "</section>\n<ul class=\"actions\" id=\"actions\">\n"
        for activity in actions {
            page +=
                "<li data-id=\"\(escape(activity.id))\" data-kind=\"\(escape(activity.kind))\">\(escape(activity.title))</li>\n"
        }
        page += "</ul>\n<details id=\"hidden\"><summary>\(hidden.count) hidden</summary><ul>\n"
        for activity in hidden {
            page +=
                "<li data-id=\"\(escape(activity.id))\"><b>\(escape(activity.title))</b>: \(escape(activity.reason))</li>\n"
        }
        page += "</ul></details>\n</div></body></html>\n"
        return page
    }

    private func escape(_ text: String) -> String { ScreenPage.escape(text) }
}
