import Foundation
import HeadlessScreens
import Testing

@testable import UIKit

/// Auto Layout constraints as exthost records them (written out as in Interface Builder, active
/// only between views with a common ancestor), layout priorities, and table cells' labels and
/// content configurations by style.
@MainActor
struct LayoutAndCellTests {
    @Test func constraintsAreWrittenOutAndHeldByTheCommonAncestor() {
        let container = UIView()
        let label = UILabel()
        label.accessibilityIdentifier = "title"
        container.addSubview(label)
        let leading = label.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 16)
        let trailing = label.trailingAnchor.constraint(lessThanOrEqualTo: container.trailingAnchor, constant: -8)
        let top = label.topAnchor.constraint(greaterThanOrEqualTo: container.topAnchor)
        let width = label.widthAnchor.constraint(equalTo: container.widthAnchor, multiplier: 0.5)
        let height = label.heightAnchor.constraint(lessThanOrEqualToConstant: 44)
        height.priority = .defaultHigh - 1
        NSLayoutConstraint.activate([leading, trailing, top, width, height])
        #expect(leading.description == "#title.leading == UIView.leading + 16")
        #expect(trailing.description == "#title.trailing <= UIView.trailing - 8")
        #expect(top.description == "#title.top >= UIView.top")
        #expect(width.description == "#title.width == UIView.width × 0.5")
        #expect(height.description == "#title.height <= 44 @749")
        #expect(container.constraints.count == 4 && label.constraints == [height])
        #expect([leading, trailing, top, width, height].allSatisfy { $0.isActive })
        leading.constant = 20
        #expect(leading.description.hasSuffix("+ 20"))
        NSLayoutConstraint.deactivate([leading, height])
        #expect(!leading.isActive && container.constraints.count == 3 && label.constraints.isEmpty)

        // Between two views in no common hierarchy: not active, and reported as iOS would raise.
        let stray = UIView()
        let orphan = stray.centerXAnchor.constraint(equalTo: container.centerXAnchor)
        orphan.isActive = true
        #expect(!orphan.isActive)
        let reported = UIKitDiagnostics.records.filter {
            $0.diagnostic.kind == .constraintWithoutCommonAncestor && $0.object === stray
        }
        #expect(reported.count == 1)
        UIKitDiagnostics.forget { $0.object === stray }
    }

    @Test func prioritiesCompareAndStep() {
        #expect(UILayoutPriority.required.rawValue == 1000 && UILayoutPriority.defaultLow.rawValue == 250)
        #expect(UILayoutPriority.fittingSizeLevel < .defaultLow && .defaultLow < UILayoutPriority.defaultHigh)
        #expect((UILayoutPriority.defaultLow + 1).rawValue == 251)
        #expect(UILayoutPriority(rawValue: 500) == UILayoutPriority(500))
    }

    @Test func cellsHaveTheLabelsTheirStyleHas() {
        let plain = UITableViewCell(style: .default, reuseIdentifier: "plain")
        #expect(plain.detailTextLabel == nil, "a default cell has no detail label")
        plain.textLabel?.text = "Row"
        #expect(plain.textLabel === plain.textLabel && plain.textLabel?.superview === plain.contentView)
        let image = plain.imageView
        #expect(plain.contentView.subviews.first === image, "the image view goes behind the labels")
        let subtitle = UITableViewCell(style: .subtitle, reuseIdentifier: nil)
        subtitle.detailTextLabel?.text = "Detail"
        #expect(subtitle.detailTextLabel?.text == "Detail")
        let framed = UITableViewCell(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
        #expect(framed.frame.width == 320 && framed.reuseIdentifier == nil)
        framed.setHighlighted(true, animated: false)
        #expect(framed.isHighlighted)
    }

    @Test func aContentConfigurationReplacesTheLabels() throws {
        let cell = UITableViewCell(style: .value1, reuseIdentifier: nil)
        var content = cell.defaultContentConfiguration()
        content.text = "Name"
        content.secondaryText = "Alice"
        content.attributedText = NSAttributedString(string: "Bold name")
        #expect(content.text == "Bold name" && content.attributedText?.string == "Bold name")
        content.secondaryAttributedText = NSAttributedString(string: "Alice A.")
        #expect(content.secondaryText == "Alice A.")
        cell.contentConfiguration = content
        let view = try #require(cell.contentView.subviews.last as? UIListContentView)
        let shown = view.subviews.compactMap { $0 as? UILabel }.map(\.text)
        #expect(shown == ["Bold name", "Alice A."])
        var changed = content
        changed.secondaryText = nil
        view.configuration = changed
        #expect(view.subviews.compactMap { $0 as? UILabel }.last?.isHidden == true)
        cell.contentConfiguration = nil
        #expect(!cell.contentView.subviews.contains { $0 === view })
        #expect(UIListContentConfiguration.subtitleCell().text == nil)
        #expect(UIListContentConfiguration.groupedHeader().secondaryText == nil)
    }

    @Test func aTableViewControllersDefaultsAreApples() {
        let controller = UITableViewController(style: .plain)
        let table = UITableView(frame: .zero, style: .plain)
        let index = IndexPath(row: 0, section: 0)
        #expect(controller.numberOfSections(in: table) == 1)
        #expect(controller.tableView(table, numberOfRowsInSection: 0) == 0)
        #expect(controller.tableView(table, titleForHeaderInSection: 0) == nil)
        #expect(controller.tableView(table, titleForFooterInSection: 0) == nil)
        #expect(controller.tableView(table, canEditRowAt: index))
        #expect(controller.tableView(table, heightForRowAt: index) == table.rowHeight)
        #expect(controller.tableView(table, viewForHeaderInSection: 0) == nil)
        #expect(controller.tableView(table, heightForHeaderInSection: 0) == table.sectionHeaderHeight)
        #expect(controller.tableView(table, cellForRowAt: index).reuseIdentifier == nil)
        #expect(controller.clearsSelectionOnViewWillAppear)
    }
}
