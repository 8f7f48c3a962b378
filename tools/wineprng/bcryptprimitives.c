/*
 * bcryptprimitives.dll for Wine 8, which has none: Go 1.22+ programs get
 * their random bytes from ProcessPrng in this DLL and abort at start
 * without it. Used only by the Windows test lane (make test-windows);
 * never shipped. ProcessPrng is documented to always succeed; the
 * system's RtlGenRandom (advapi32 SystemFunction036) supplies the bytes.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
