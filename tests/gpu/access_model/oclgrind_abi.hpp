// The few declarations of Oclgrind's plugin interface (Oclgrind 21.10, Debian's liboclgrind)
// that the access model calls. Debian ships Oclgrind's libraries without its headers, so these
// are declared here from the library's ABI: the Plugin class's virtual functions in the order
// of its vtable (read from liboclgrind-21.10.so's `_ZTVN8oclgrind6PluginE`), and the accessors'
// return conventions as the library's code has them (Size3 returned by value). A different
// Oclgrind could lay these out otherwise: CMake builds the model against 21.10 only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace llvm {
class Instruction;
}

namespace oclgrind {

class Context;
class Kernel;
class KernelInvocation;
class Memory;
class WorkGroup;
class WorkItem;
struct TypedValue;
enum AtomicOp : int;
enum MessageType : int;

constexpr unsigned kAddressSpaceGlobal = 1;
constexpr unsigned kAddressSpaceLocal = 3;

struct Size3 {
  std::size_t x, y, z;
};

class Kernel {
 public:
  const std::string& getName() const;
};

class KernelInvocation {
 public:
  const Kernel* getKernel() const;
  Size3 getLocalSize() const;
  Size3 getGlobalSize() const;
};

class Memory {
 public:
  unsigned getAddressSpace() const;
};

class WorkItem {
 public:
  Size3 getLocalID() const;
  const llvm::Instruction* getCurrentInstruction() const;
};

class WorkGroup {
 public:
  Size3 getGroupSize() const;
};

// Every virtual function of Oclgrind 21.10's Plugin, in its vtable's order; the access model
// overrides a few. The bodies are empty, as Oclgrind's own are.
class Plugin {
 public:
  explicit Plugin(const Context* context);
  virtual ~Plugin();

  virtual void hostMemoryLoad(const Memory*, std::size_t, std::size_t) {}
  virtual void hostMemoryStore(const Memory*, std::size_t, std::size_t, const std::uint8_t*) {}
  virtual void instructionExecuted(const WorkItem*, const llvm::Instruction*, const TypedValue&) {}
  virtual void kernelBegin(const KernelInvocation*) {}
  virtual void kernelEnd(const KernelInvocation*) {}
  virtual void log(MessageType, const char*) {}
  virtual void memoryAllocated(const Memory*, std::size_t, std::size_t, std::uint64_t, const std::uint8_t*) {}
  virtual void memoryAtomicLoad(const Memory*, const WorkItem*, AtomicOp, std::size_t, std::size_t) {}
  virtual void memoryAtomicStore(const Memory*, const WorkItem*, AtomicOp, std::size_t, std::size_t) {}
  virtual void memoryDeallocated(const Memory*, std::size_t) {}
  virtual void memoryLoad(const Memory*, const WorkItem*, std::size_t, std::size_t) {}
  virtual void memoryLoad(const Memory*, const WorkGroup*, std::size_t, std::size_t) {}
  virtual void memoryMap(const Memory*, std::size_t, std::size_t, std::size_t, std::uint64_t) {}
  virtual void memoryStore(const Memory*, const WorkItem*, std::size_t, std::size_t, const std::uint8_t*) {}
  virtual void memoryStore(const Memory*, const WorkGroup*, std::size_t, std::size_t, const std::uint8_t*) {}
  virtual void memoryUnmap(const Memory*, std::size_t, const void*) {}
  virtual void workGroupBarrier(const WorkGroup*, std::uint32_t) {}
  virtual void workGroupBegin(const WorkGroup*) {}
  virtual void workGroupComplete(const WorkGroup*) {}
  virtual void workItemBegin(const WorkItem*) {}
  virtual void workItemComplete(const WorkItem*) {}
  virtual bool isThreadSafe() const;

 protected:
  const Context* m_context;
};

class Context {
 public:
  void registerPlugin(Plugin* plugin);
  void unregisterPlugin(Plugin* plugin);
};

}  // namespace oclgrind
