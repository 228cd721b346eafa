import Foundation
import Testing
@testable import SlapdKit

@Suite("Replication settings in the generated cn=config")
struct ReplicationConfigurationTests {
    private let directory = URL(fileURLWithPath: "/srv/ldapbook", isDirectory: true)
    private let owner = SlapdConfiguration.LDAPIOwner(userID: 0, groupID: 0)

    private func node(_ serverID: Int, peers: [String]) -> SlapdConfiguration {
        var configuration = SlapdConfiguration(suffix: "dc=example,dc=org", rootPassword: "s3cret-pass")
        configuration.replication = .init(serverID: serverID, peers: peers)
        return configuration
    }

    private func lines(_ ldif: String) -> [String] {
        ldif.split(separator: "\n").map(String.init)
    }

    @Test("A node loads syncprov, has a server ID, one consumer per peer and accepts writes")
    func multiProviderNode() throws {
        let ldif = try node(2, peers: ["ldap://provider1:389", "ldap://provider3:389"])
            .configurationLDIF(directory: directory, ldapiOwner: owner, passwordSalt: [1, 2, 3, 4])
        let text = lines(ldif)
        #expect(text.contains("olcServerID: 2"))
        #expect(text.contains("olcModuleLoad: {1}syncprov"))
        #expect(text.contains("olcModuleLoad: {2}accesslog"))
        #expect(text.contains("olcDbDirectory: /srv/ldapbook/accesslog"))
        #expect(text.contains("olcMultiProvider: TRUE"))
        #expect(text.filter { $0.hasPrefix("olcSyncrepl: ") } == [
            #"olcSyncrepl: {0}rid=001 provider=ldap://provider1:389 bindmethod=simple binddn="cn=admin,dc=example,dc=org" credentials="s3cret-pass" searchbase="dc=example,dc=org" type=refreshAndPersist syncdata=accesslog logbase="cn=accesslog" logfilter="(&(objectClass=auditWriteObject)(reqResult=0))" retry="1 60 10 +" network-timeout=5 timeout=5"#,
            #"olcSyncrepl: {1}rid=002 provider=ldap://provider3:389 bindmethod=simple binddn="cn=admin,dc=example,dc=org" credentials="s3cret-pass" searchbase="dc=example,dc=org" type=refreshAndPersist syncdata=accesslog logbase="cn=accesslog" logfilter="(&(objectClass=auditWriteObject)(reqResult=0))" retry="1 60 10 +" network-timeout=5 timeout=5"#,
        ])
        let entries = ldif.components(separatedBy: "\n\n")
        #expect(entries.last?.hasPrefix("dn: olcOverlay={1}accesslog,olcDatabase={1}mdb,cn=config\n") == true)
        #expect(text.contains("olcDbDirectory: /srv/ldapbook/data"))
        #expect(text.contains { $0.hasPrefix("olcAuthzRegexp: ") && $0.contains("gidNumber=0\\+uidNumber=0,") })
    }

    @Test("The same settings and salt give the same configuration; a random salt does not")
    func deterministic() throws {
        let configuration = node(1, peers: ["ldap://provider2:389"])
        let first = try configuration.configurationLDIF(directory: directory, ldapiOwner: owner, passwordSalt: [9, 9, 9, 9])
        let second = try configuration.configurationLDIF(directory: directory, ldapiOwner: owner, passwordSalt: [9, 9, 9, 9])
        let random = try configuration.configurationLDIF(directory: directory, ldapiOwner: owner)
        #expect(first == second)
        #expect(first != random)
        #expect(lines(first).contains("olcRootPW: " + SaltedSHA1.hash("s3cret-pass", salt: [9, 9, 9, 9])))
    }

    @Test("A given olcRootPW value is written as it is")
    func verbatimRootPasswordHash() throws {
        var configuration = node(1, peers: ["ldap://provider2:389"])
        configuration.rootPasswordHash = "{ARGON2}$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA"
        let text = lines(try configuration.configurationLDIF(directory: directory, ldapiOwner: owner))
        #expect(text.contains("olcRootPW: {ARGON2}$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA"))
    }

    /// A setting that slapd would reject or misread, and the words of the refusal.
    enum BadSetting: CaseIterable, Sendable {
        case serverIDZero, serverIDTooLarge, noPeers, peerWithoutScheme, peerInjectingCredentials
        case quoteInCredentials, backslashInRootPassword, emptyRootPassword, quoteInBindDN

        func apply(to configuration: inout SlapdConfiguration) {
            switch self {
            case .serverIDZero: configuration.replication?.serverID = 0
            case .serverIDTooLarge: configuration.replication?.serverID = 4096
            case .noPeers: configuration.replication?.peers = []
            case .peerWithoutScheme: configuration.replication?.peers = ["provider2:389"]
            case .peerInjectingCredentials: configuration.replication?.peers = ["ldap://a\" credentials=x"]
            case .quoteInCredentials: configuration.replication?.credentials = "pa\"ss"
            case .backslashInRootPassword: configuration.rootPassword = "back\\slash"
            case .emptyRootPassword: configuration.rootPassword = ""
            case .quoteInBindDN: configuration.replication?.bindDN = "cn=\"x\",dc=example,dc=org"
            }
        }

        var reason: String {
            switch self {
            case .serverIDZero: "server ID 0"
            case .serverIDTooLarge: "server ID 4096"
            case .noPeers: "between 1 and 999 peers"
            case .peerWithoutScheme, .peerInjectingCredentials: "is not an ldap://"
            case .quoteInCredentials, .backslashInRootPassword: "printable ASCII"
            case .emptyRootPassword: "needs a password"
            case .quoteInBindDN: "bind DN"
            }
        }
    }

    @Test("Settings slapd would reject or misread are refused with a clear reason", arguments: BadSetting.allCases)
    func refused(setting: BadSetting) throws {
        var configuration = node(1, peers: ["ldap://provider2:389"])
        setting.apply(to: &configuration)
        let error = #expect(throws: SlapdError.self) {
            try configuration.configurationLDIF(directory: directory, ldapiOwner: owner)
        }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.message.contains(setting.reason) == true, "\(error?.message ?? "")")
    }
}
