import Foundation
import HeadlessScreens
import Testing

@testable import UIKit

/// `UITableView` asking its data source as Apple documents: sections and rows, the cells it
/// loaded and their index paths, selection, updates that reload, and a dequeue for an
/// identifier nothing registered (which iOS answers with an exception).
@MainActor
struct TableViewTests {
    final class Rows: NSObject, UITableViewDataSource {
        var sections = [["Alice", "Bob"], ["Carol"]]
        func numberOfSections(in tableView: UITableView) -> Int { sections.count }
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            cell.textLabel?.text = sections[indexPath.section][indexPath.row]
            return cell
        }
    }

    @Test func theTableAsksItsDataSourceAndKeepsItsCells() {
        let rows = Rows()
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 320, height: 600))
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.dataSource = rows
        #expect(table.numberOfSections == 2)
        #expect(table.numberOfRows(inSection: 0) == 2 && table.numberOfRows(inSection: 1) == 1)
        #expect(table.numberOfRows(inSection: 5) == 0)
        #expect(table.visibleCells.map { $0.textLabel?.text } == ["Alice", "Bob", "Carol"])
        #expect(
            table.indexPathsForVisibleRows
                == [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0), IndexPath(row: 0, section: 1)])
        let carol = table.visibleCells[2]
        #expect(table.indexPath(for: carol) == IndexPath(row: 0, section: 1))
        #expect(table.indexPath(for: UITableViewCell()) == nil)

        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        #expect(table.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        table.selectRow(at: nil, animated: false, scrollPosition: .none)
        #expect(table.indexPathForSelectedRow == nil, "selecting nil clears the selection")
        table.setEditing(true, animated: false)
        #expect(table.isEditing)

        rows.sections[1].append("Dave")
        table.insertRows(at: [IndexPath(row: 1, section: 1)], with: .automatic)
        #expect(table.visibleCells.count == 4)
        rows.sections.removeLast()
        table.deleteSections(IndexSet(integer: 1), with: .fade)
        #expect(table.numberOfSections == 1 && table.visibleCells.count == 2)
        rows.sections = [["Eve"]]
        table.beginUpdates()
        table.endUpdates()
        #expect(table.visibleCells.map { $0.textLabel?.text } == ["Eve"])
        rows.sections = []
        table.reloadSections(IndexSet(integer: 0), with: .none)
        #expect(table.numberOfSections == 0 && table.visibleCells.isEmpty)
    }

    @Test func aDequeueForAnUnregisteredIdentifierIsReported() {
        let rows = Rows()
        let table = UITableView(frame: .zero, style: .plain)
        table.dataSource = rows
        let cells = table.visibleCells
        #expect(cells.count == 3 && cells.allSatisfy { $0.reuseIdentifier == "row" })
        let reported = UIKitDiagnostics.records.filter {
            $0.diagnostic.kind == .unregisteredCell && $0.object === table
        }
        #expect(reported.count == 3)
        #expect(reported.first?.diagnostic.message.contains(#"found no cell class registered for "row""#) == true)
        UIKitDiagnostics.forget { $0.object === table }
    }

    @Test func batchUpdatesReloadAndCompleteOnTheNextTurn() async {
        let rows = Rows()
        let table = UITableView(frame: .zero, style: .grouped)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.dataSource = rows
        #expect(table.visibleCells.count == 3)
        let finished: Bool = await withCheckedContinuation { continuation in
            table.performBatchUpdates {
                rows.sections[0].removeFirst()
            } completion: { done in
                continuation.resume(returning: done)
            }
        }
        #expect(finished && table.visibleCells.map { $0.textLabel?.text } == ["Bob", "Carol"])
    }
}
