import AppGroups
import ExtensionIPC
import Foundation
import HostSystem
import Testing
import UniformTypeIdentifiers

/// `UserDefaults(suiteName: "group.…")` and `FileManager.containerURL(…)` as a device answers them:
/// the group's shared suite (binary plist in the group container), shared across processes.
@Suite(.serialized) struct GroupDefaultsTests {
    static let group = "group.com.example.defaults"

    struct Device {
        let root: DeviceRoot
        let group: URL
        let container: URL

        init() throws {
            root = DeviceRoot(
                url: FileManager.default.temporaryDirectory.appendingPathComponent("defaults-\(UUID().uuidString)"))
            group = try root.container(.appGroup, identifier: GroupDefaultsTests.group).url
            container = try root.container(.application, identifier: "com.example.defaults").url
        }

        var environment: ProcessEnvironment {
            ProcessEnvironment(
                bundleIdentifier: "com.example.defaults", containerPath: container.path,
                groupContainers: [GroupDefaultsTests.group: group.path], rootPath: root.url.path)
        }

        func remove() { try? FileManager.default.removeItem(at: root.url) }
    }

    @Test func twoProcessesSettingDifferentKeysThroughUserDefaultsLoseNothing() async throws {
        let device = try Device()
        defer { device.remove() }
        let writer = try #require(SiblingExecutable.path("exthost-defaults-writer"))
        var environment = device.environment.variables().map { "\($0.key)=\($0.value)" }
        environment.append("PATH=/usr/bin:/bin")
        var children: [ChildProcess] = []
        for prefix in ["app", "extension"] {
            var spawn = Spawn(executable: writer, arguments: [Self.group, prefix, "40"])
            spawn.environment = environment
            children.append(try ChildProcess(spawning: spawn))
        }
        for child in children { #expect(await child.exitStatus().isSuccess) }
        let store = try AppGroupStore.inspect(try AppGroupIdentifier(validating: Self.group), root: device.root)
        let values = try store.defaults().dictionary()
        #expect(values.count == 82)
        #expect(values["app39"] == .integer(39) && values["extension0"] == .integer(0))
        #expect(values["appdone"] == .bool(true))
        // As on a device: a binary property list in the group container.
        let plist = device.group.appendingPathComponent("Library/Preferences/\(Self.group).plist")
        #expect(try Data(contentsOf: plist).starts(with: Array("bplist00".utf8)))
    }

    @Test func theSuiteAndTheContainerFollowTheEntitlements() throws {
        let device = try Device()
        defer { device.remove() }
        let saved = ProcessIdentity.environment
        defer { ProcessIdentity.environment = saved }
        ProcessIdentity.environment = device.environment
        #expect(
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.group)?.path
                == device.group.path)
        #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.other") == nil)

        let defaults = try #require(UserDefaults(suiteName: Self.group))
        defaults.set("v", forKey: "k")
        defaults.set(2.5, forKey: "real")
        defaults.set(["a", "b"], forKey: "list")
        defaults.register(defaults: ["fallback": 7])
        #expect(defaults.string(forKey: "k") == "v")
        #expect(defaults.double(forKey: "real") == 2.5)
        #expect(defaults.stringArray(forKey: "list") == ["a", "b"])
        #expect(defaults.integer(forKey: "fallback") == 7)
        defaults.removeObject(forKey: "k")
        #expect(UserDefaults(suiteName: Self.group)?.object(forKey: "k") == nil)
        #expect(UserDefaults(suiteName: Self.group)?.double(forKey: "real") == 2.5, "another instance sees it")

        // A suite the process is not entitled to lives in its own container, shared with nobody.
        let own = try #require(UserDefaults(suiteName: "group.other"))
        own.set(1, forKey: "x")
        #expect(
            FileManager.default.fileExists(
                atPath: device.container.appendingPathComponent("Library/Preferences/group.other.plist").path))
    }
}
