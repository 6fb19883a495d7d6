# drgn script: list every workqueue with its WQ_* flags, read from the
# kernel's own enum so the bits are never hard-coded here.
from drgn.helpers.linux.list import list_for_each_entry

FLAGS = ['WQ_UNBOUND', 'WQ_FREEZABLE', 'WQ_MEM_RECLAIM', 'WQ_HIGHPRI',
         'WQ_CPU_INTENSIVE', 'WQ_SYSFS']
bits = {name: prog[name].value_() for name in FLAGS}
n = 0
for wq in list_for_each_entry('struct workqueue_struct',
                              prog['workqueues'].address_of_(), 'list'):
    f = wq.flags.value_()
    names = [k for k, v in bits.items() if f & v] or ['(per-cpu)']
    print(f'  {wq.name.string_().decode():28} {" ".join(names)}')
    n += 1
print(f'  {n} workqueues')
